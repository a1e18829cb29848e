import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import lorem from './index.js';
import { generateLorem, type LoremOptions, type RandomSource } from './generate.js';
import { WORDS } from './lorem.data.js';

const CLASSIC = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.';

/** A fake random source that returns `values` in order and fails the test when asked for more. */
function sequence(values: number[]): RandomSource & { left: () => number } {
  let next = 0;
  const source = (): number => {
    assert.ok(next < values.length, 'the generator drew more numbers than expected');
    return values[next++]!;
  };
  return Object.assign(source, { left: () => values.length - next });
}

/** The draw that picks WORDS[index]: floor(r × 63) = index for r = (index + 0.5) / 63. */
const word = (index: number): number => (index + 0.5) / 63;

const options = (overrides: Partial<LoremOptions>): LoremOptions => ({ unit: 'paragraphs', count: 3, startClassic: false, html: false, ...overrides });

const text = async (body: Record<string, unknown>): Promise<string> => ((await invoke(lorem, 'generate', body)) as { text: string }).text;

describe('lorem-ipsum vocabulary', () => {
  it('has the 63 words the by-hand expectations below index into', () => {
    assert.equal(WORDS.length, 63);
    // Spot checks of the alphabetical list used below.
    assert.deepEqual([WORDS[0], WORDS[1], WORDS[4], WORDS[9], WORDS[15], WORDS[20], WORDS[21], WORDS[33], WORDS[38], WORDS[55], WORDS[62]],
      ['ad', 'adipiscing', 'amet', 'consectetur', 'dolor', 'elit', 'enim', 'ipsum', 'lorem', 'sit', 'voluptate']);
  });
});

describe('generateLorem with an injected random source', () => {
  it('words: floor(0 × 63) = 0 is "ad"; the repeat is bumped to index 1 "adipiscing"', () => {
    assert.equal(generateLorem(options({ unit: 'words', count: 3 }), () => 0), 'ad adipiscing ad');
  });

  it('words: a draw near 1 gives index 62 "voluptate"; its repeat wraps to index 0 "ad"', () => {
    assert.equal(generateLorem(options({ unit: 'words', count: 3 }), () => 0.999999), 'voluptate ad voluptate');
  });

  it('words: the classic opening comes first, cut to count, without a dangling comma', () => {
    const never: RandomSource = () => assert.fail('no draw is needed for up to 8 classic words');
    const classic = (count: number): string => generateLorem(options({ unit: 'words', count, startClassic: true }), never);
    assert.equal(classic(1), 'Lorem');
    assert.equal(classic(5), 'Lorem ipsum dolor sit amet');
    assert.equal(classic(6), 'Lorem ipsum dolor sit amet, consectetur');
    assert.equal(classic(8), 'Lorem ipsum dolor sit amet, consectetur adipiscing elit');
  });

  it('words: continues after the classic opening without repeating "elit"', () => {
    const random = sequence([word(20), word(0)]); // 20 = elit → bumped to 21 enim; then 0 = ad
    assert.equal(generateLorem(options({ unit: 'words', count: 10, startClassic: true }), random),
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit enim ad');
    assert.equal(random.left(), 0);
  });

  it('sentences: the shortest sentence has 6 words, capitalised, period, no comma (6 + floor(0 × 9) = 6)', () => {
    assert.equal(generateLorem(options({ unit: 'sentences', count: 1 }), () => 0), 'Ad adipiscing ad adipiscing ad adipiscing.');
  });

  it('sentences: the longest has 14 words and a comma after word index 2 + floor(0.999999 × 9) = 10', () => {
    // length 6 + floor(0.999999 × 9) = 14; every draw is index 62, so words alternate voluptate/ad;
    // word index 10 is "voluptate" and takes the comma.
    assert.equal(generateLorem(options({ unit: 'sentences', count: 1 }), () => 0.999999),
      'Voluptate ad voluptate ad voluptate ad voluptate ad voluptate ad voluptate, ad voluptate ad.');
  });

  it('sentences: draws length, each word, then the comma, in that order', () => {
    // length 6 + floor(0.25 × 9) = 8; words lorem ipsum dolor sit amet consectetur adipiscing elit;
    // comma index between 2 and 8 − 4 = 4: 2 + floor(0.9 × 3) = 4 → after "amet".
    const random = sequence([0.25, word(38), word(33), word(15), word(55), word(4), word(9), word(1), word(20), 0.9]);
    assert.equal(generateLorem(options({ unit: 'sentences', count: 1 }), random), CLASSIC);
    assert.equal(random.left(), 0);
  });

  it('sentences: the classic sentence opens, then random ones follow, joined by a space', () => {
    assert.equal(generateLorem(options({ unit: 'sentences', count: 2, startClassic: true }), () => 0),
      `${CLASSIC} Ad adipiscing ad adipiscing ad adipiscing.`);
  });

  it('paragraphs: 4 + floor(0 × 4) = 4 and 4 + floor(0.999999 × 4) = 7 sentences', () => {
    const short = 'Ad adipiscing ad adipiscing ad adipiscing.';
    assert.equal(generateLorem(options({ count: 1 }), () => 0), [short, short, short, short].join(' '));
    const long = generateLorem(options({ count: 1 }), () => 0.999999);
    assert.equal(long.split('.').length - 1, 7);
  });

  it('html: one <p> per paragraph on its own line; sentences and words in a single <p>', () => {
    const short = 'Ad adipiscing ad adipiscing ad adipiscing.';
    const paragraph = [short, short, short, short].join(' ');
    assert.equal(generateLorem(options({ count: 2, html: true }), () => 0), `<p>${paragraph}</p>\n<p>${paragraph}</p>`);
    assert.equal(generateLorem(options({ unit: 'sentences', count: 2, html: true }), () => 0), `<p>${short} ${short}</p>`);
    assert.equal(generateLorem(options({ unit: 'words', count: 2, html: true }), () => 0), '<p>ad adipiscing</p>');
  });
});

describe('lorem-ipsum.generate', () => {
  it('defaults to 3 paragraphs starting with the classic sentence, plain text (Math.random fixed at 0)', async (t) => {
    t.mock.method(Math, 'random', () => 0);
    const short = 'Ad adipiscing ad adipiscing ad adipiscing.';
    const first = [CLASSIC, short, short, short].join(' ');
    const other = [short, short, short, short].join(' ');
    assert.deepEqual(await invoke(lorem, 'generate', {}), { text: `${first}\n\n${other}\n\n${other}` });
    assert.equal(await text({ html: true }), `<p>${first}</p>\n<p>${other}</p>\n<p>${other}</p>`);
  });

  it('gives exactly count units with real randomness, never a word twice in a row', async () => {
    const cases: [string, number][] = [['paragraphs', 1], ['paragraphs', 200], ['sentences', 1], ['sentences', 200], ['words', 1], ['words', 5000]];
    for (const [unit, count] of cases) {
      for (const startClassic of [true, false]) {
        const result = await text({ unit, count, startClassic });
        const sentences = result.split(/(?<=\.)(?: |\n\n)/);
        const words = result.split(/\s+/);
        if (unit === 'paragraphs') {
          const paragraphs = result.split('\n\n');
          assert.equal(paragraphs.length, count);
          for (const paragraph of paragraphs) {
            const size = paragraph.split('.').length - 1;
            assert.ok(size >= 4 && size <= 7, `${size} sentences in a paragraph`);
          }
        }
        if (unit === 'sentences') assert.equal(sentences.length, count);
        if (unit !== 'words') {
          for (const sentence of sentences) {
            const size = sentence.split(' ').length;
            assert.ok(sentence === CLASSIC || (size >= 6 && size <= 14), `sentence of ${size} words`);
            assert.match(sentence, /^[A-Z][a-z]*(?:,? [a-z]+)*\.$/);
          }
        } else {
          assert.equal(words.length, count);
          assert.doesNotMatch(result, /[.\n]|,$/);
        }
        // A random opening matching five classic words has a chance of 1 in 63^5.
        assert.equal(result.startsWith(count === 1 && unit === 'words' ? 'Lorem' : 'Lorem ipsum dolor sit amet'), startClassic);
        const bare = words.map((entry) => entry.replace(/[,.]/g, '').toLowerCase());
        for (let i = 1; i < bare.length; i++) assert.notEqual(bare[i], bare[i - 1], `repeated word at ${i}`);
        for (const entry of bare) assert.ok(WORDS.includes(entry), entry);
      }
    }
  });

  it('allows 200 paragraphs and sentences but answers 400 on /count for 201', async () => {
    await rejectsField(invoke(lorem, 'generate', { unit: 'paragraphs', count: 201 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { unit: 'sentences', count: 201 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { count: 201 }), '/count'); // default unit is paragraphs
    assert.equal((await text({ unit: 'words', count: 201 })).split(' ').length, 201);
  });

  it('bounds count to 1–5000 integers', async () => {
    assert.equal(await text({ unit: 'words', count: 1, startClassic: true }), 'Lorem');
    await rejectsField(invoke(lorem, 'generate', { unit: 'words', count: 5001 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { unit: 'words', count: 0 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { count: 1.5 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { count: '3' }), '/count');
  });

  it('refuses unknown units, non-boolean flags and unknown fields', async () => {
    await rejectsField(invoke(lorem, 'generate', { unit: 'lines' }), '/unit');
    await rejectsField(invoke(lorem, 'generate', { html: 'yes' }), '/html');
    await rejectsField(invoke(lorem, 'generate', { startClassic: null }), '/startClassic');
    await rejectsField(invoke(lorem, 'generate', { seed: 1 }), '/seed');
  });

  it('hostile: extreme numbers, a look-alike unit, a non-object body', async () => {
    await rejectsField(invoke(lorem, 'generate', { unit: 'words', count: 1e308 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { unit: 'words', count: -1e308 }), '/count');
    await rejectsField(invoke(lorem, 'generate', { unit: 'words\u0000' }), '/unit');
    await rejectsField(invoke(lorem, 'generate', { unit: 'ｗｏｒｄｓ' }), '/unit');
    await assert.rejects(invoke(lorem, 'generate', ['words']), { status: 400, code: 'validation_failed' });
  });

  it('hostile: the largest requests answer quickly', async () => {
    const started = performance.now();
    await text({ unit: 'paragraphs', count: 200, html: true });
    await text({ unit: 'sentences', count: 200 });
    await text({ unit: 'words', count: 5000 });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
