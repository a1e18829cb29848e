import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import textDiff from './index.js';
import { WorkBudget } from './align.js';
import { diffInline } from './inline.js';
import { PartBudget } from './parts.js';

type Inline = { identical: boolean; parts: { type: string; value: string }[] };

const inline = async (body: Record<string, unknown>): Promise<Inline> => (await invoke(textDiff, 'inline', body)) as Inline;
const parts = async (body: Record<string, unknown>): Promise<[string, string][]> => (await inline(body)).parts.map((part) => [part.type, part.value]);
const plain = { ignoreCase: false, ignoreWhitespace: false };

/** Deterministic space-separated base-36 words from a linear congruential generator, `size` characters or a little more. */
function randomWords(seed: number, size: number): string {
  let x = seed;
  const out: string[] = [];
  let length = 0;
  while (length < size) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const word = x.toString(36);
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ');
}

describe('text-diff.inline', () => {
  it('answers its examples', async () => {
    for (const example of textDiff.operations.inline!.examples) {
      assert.deepEqual(await invoke(textDiff, 'inline', example.body), example.response, example.title);
    }
  });

  it('defaults to words: whitespace runs are tokens of their own', async () => {
    assert.deepEqual(await parts({ original: 'foo bar', changed: 'foo  bar' }), [['same', 'foo'], ['del', ' '], ['add', '  '], ['same', 'bar']]);
    assert.deepEqual(await parts({ original: 'one two', changed: 'one two three' }), [['same', 'one two'], ['add', ' three']]);
  });

  it('chars: kitten → sitting keeps the common "itt" and "n" (edit distance 5: 6 − 4 + 7 − 4)', async () => {
    assert.deepEqual(await parts({ original: 'kitten', changed: 'sitting', granularity: 'chars' }), [
      ['del', 'k'], ['add', 's'], ['same', 'itt'], ['del', 'e'], ['add', 'i'], ['same', 'n'], ['add', 'g'],
    ]);
  });

  it('chars are code points: an emoji is never cut between its surrogates', async () => {
    assert.deepEqual(await parts({ original: 'a👍b', changed: 'a👎b', granularity: 'chars' }), [['same', 'a'], ['del', '👍'], ['add', '👎'], ['same', 'b']]);
  });

  it('identical texts are one same part; empty texts have none', async () => {
    assert.deepEqual(await inline({ original: 'same text', changed: 'same text' }), { identical: true, parts: [{ type: 'same', value: 'same text' }] });
    assert.deepEqual(await inline({ original: '', changed: '' }), { identical: true, parts: [] });
    assert.deepEqual(await inline({ original: '', changed: 'abc' }), { identical: false, parts: [{ type: 'add', value: 'abc' }] });
    assert.deepEqual(await inline({ original: 'abc', changed: '', granularity: 'chars' }), { identical: false, parts: [{ type: 'del', value: 'abc' }] });
  });

  it('ignoreCase: kept parts are spelled as in the changed text', async () => {
    assert.deepEqual(await parts({ original: 'Hello World', changed: 'hello there', ignoreCase: true }), [['same', 'hello '], ['del', 'World'], ['add', 'there']]);
    assert.deepEqual(await inline({ original: 'ABC', changed: 'abc', ignoreCase: true }), { identical: true, parts: [{ type: 'same', value: 'abc' }] });
    assert.equal((await inline({ original: 'ABC', changed: 'abc' })).identical, false);
  });

  it('ignoreWhitespace: texts equal without whitespace are identical, whatever the tokens', async () => {
    assert.deepEqual(await inline({ original: 'a b', changed: 'ab', ignoreWhitespace: true }), { identical: true, parts: [{ type: 'same', value: 'ab' }] });
    assert.deepEqual(await inline({ original: 'foo bar', changed: 'foo\n\tbar', ignoreWhitespace: true }), {
      identical: true, parts: [{ type: 'same', value: 'foo\n\tbar' }],
    });
  });

  it('ignoreWhitespace: whitespace is never a change; a shared gap shows the changed text\'s', async () => {
    // Common ends "one " and "three"; middle "two␣␣" / "2␣": two → 2, and the gap after them is
    // written once, from the changed text.
    assert.deepEqual(await parts({ original: 'one two  three', changed: 'one 2 three', ignoreWhitespace: true }), [
      ['same', 'one '], ['del', 'two'], ['add', '2'], ['same', ' three'],
    ]);
    // Whitespace only the original has, before a removed character, stays as same.
    assert.deepEqual(await parts({ original: 'a b', changed: 'ac', granularity: 'chars', ignoreWhitespace: true }), [
      ['same', 'a '], ['del', 'b'], ['add', 'c'],
    ]);
  });

  it('stops at the part limit with output_too_large, and at the work budget with diff_too_complex', () => {
    // a b c / a x c: same "a ", del b, add x, same " c" are 4 parts.
    assert.equal(diffInline('a b c', 'a x c', 'words', plain, new WorkBudget(), new PartBudget(4)).parts.length, 4);
    assert.throws(() => diffInline('a b c', 'a x c', 'words', plain, new WorkBudget(), new PartBudget(3)), { status: 422, code: 'output_too_large' });
    const spent = new WorkBudget(0);
    assert.throws(() => diffInline('ab', 'ba', 'chars', plain, spent, new PartBudget()), { status: 422, code: 'diff_too_complex' });
  });

  it('hostile: two different 2 MB texts answer 422 diff_too_complex without stalling, by words and by chars', async () => {
    const original = randomWords(1, 2_000_000);
    const changed = randomWords(2, 2_000_000);
    for (const granularity of ['words', 'chars']) {
      const started = performance.now();
      await assert.rejects(inline({ original, changed, granularity }), { status: 422, code: 'diff_too_complex' });
      const elapsed = performance.now() - started;
      assert.ok(elapsed < HANG_GUARD_MS, `${granularity}: ${Math.round(elapsed)} ms`);
    }
  });

  it('hostile: a one-character edit in 4 MB of punctuation or letters is found quickly', async () => {
    // Parts as [type, length, first character] so a failure does not print megabytes.
    const summary = async (body: Record<string, unknown>): Promise<[string, number, string][]> =>
      (await inline(body)).parts.map((part) => [part.type, part.value.length, part.value.charAt(0)]);
    const started = performance.now();
    const bangs = '!'.repeat(4_000_000);
    // 3,999,999 common "!" then the last "!" becomes "?".
    assert.deepEqual(await summary({ original: bangs, changed: `${bangs.slice(1)}?` }), [['same', 3_999_999, '!'], ['del', 1, '!'], ['add', 1, '?']]);
    const letters = 'x'.repeat(4_000_000);
    assert.deepEqual(await summary({ original: letters, changed: `${letters}y`, granularity: 'chars' }), [['same', 4_000_000, 'x'], ['add', 1, 'y']]);
    assert.deepEqual(await summary({ original: `a ${letters}`, changed: `b ${letters}` }), [['del', 1, 'a'], ['add', 1, 'b'], ['same', 4_000_001, ' ']]);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('hostile: lone surrogates and control characters are ordinary tokens', async () => {
    assert.deepEqual(await parts({ original: '\ud800', changed: '\udc00', granularity: 'chars' }), [['del', '\ud800'], ['add', '\udc00']]);
    assert.deepEqual(await parts({ original: 'a\u0000b', changed: 'a\u0001b' }), [['same', 'a'], ['del', '\u0000'], ['add', '\u0001'], ['same', 'b']]);
  });

  it('validates the body', async () => {
    await rejectsField(invoke(textDiff, 'inline', { original: 'a', changed: 'b', granularity: 'lines' }), '/granularity');
    await rejectsField(invoke(textDiff, 'inline', { original: null, changed: 'b' }), '/original');
    await rejectsField(invoke(textDiff, 'inline', { original: 'a', changed: 'b', ignoreCase: 0 }), '/ignoreCase');
    await rejectsField(invoke(textDiff, 'inline', { original: 'a', changed: 'b', extra: true }), '/extra');
  });
});
