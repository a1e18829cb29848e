/**
 * /passphrase. Statistical assertions use a fixed number of draws; the failure probability of each
 * for a correct generator is worked out beside it (all below 1e-9).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { EFF_LARGE_WORDLIST } from './eff-large-wordlist.data.js';
import passwordGenerator from './index.js';

interface Answer {
  passwords: string[];
  entropyBits: number;
  strength: string;
  crackSeconds: number;
}

const wordSet = new Set(EFF_LARGE_WORDLIST);

async function passphrase(body: Record<string, unknown>): Promise<Answer> {
  return (await invoke(passwordGenerator, 'passphrase', body)) as Answer;
}

const report = (answer: Answer): [number, string, number] => [answer.entropyBits, answer.strength, answer.crackSeconds];

describe('password-generator.passphrase', () => {
  it('answers the example with exact entropy, strength and crack time, and a passphrase of its shape', async () => {
    const example = passwordGenerator.operations.passphrase!.examples[0]!;
    const answer = await passphrase(example.body);
    assert.deepEqual(report(answer), report(example.response as Answer));
    assert.match(answer.passwords[0]!, /^[a-z-]+$/);
  });

  it('defaults to one passphrase of five lowercase words joined by "-"', async () => {
    const answer = await passphrase({});
    assert.equal(answer.passwords.length, 1);
    assert.match(answer.passwords[0]!, /^[a-z]+(-[a-z]+){4,8}$/); // four hyphenated words exist (t-shirt…)
    // 5 · log2(7776) = 5 · 12.9248125036 = 64.624 → 64.6; 2^64.6 / 2e10 = 1.398e9 → 1.4e9
    assert.deepEqual(report(answer), [64.6, 'strong', 1.4e9]);
  });

  it('draws every word from the EFF list, across the whole list', async () => {
    const words: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const text of (await passphrase({ words: 5, separator: '|', count: 50 })).passwords) {
        const parts = text.split('|');
        assert.equal(parts.length, 5);
        words.push(...parts);
      }
    }
    assert.ok(words.every((word) => wordSet.has(word)));
    // 1250 words; those from the first half of the list follow Binomial(1250, 1/2): mean 625, sd 17.7.
    // Outside 450–800 is 9.9 sd (≈ 4e-23). A generator using part of the list fails it.
    const firstHalf = words.filter((word) => word < EFF_LARGE_WORDLIST[3888]!).length;
    assert.ok(firstHalf > 450 && firstHalf < 800, `${firstHalf} of 1250`);
  });

  it('gives the entropy of 3, 4, 6 and 12 words', async () => {
    // k · 12.9248125036: 38.77 → 38.8; 51.70 → 51.7; 77.55 → 77.5; 155.10 → 155.1
    // 2^38.8 / 2e10 = 23.93; 2^51.7 / 2e10 = 1.834e5; 2^77.5 / 2e10 = 1.068e13; 2^155.1 / 2e10 = 2.447e36
    assert.deepEqual(report(await passphrase({ words: 3 })), [38.8, 'weak', 23.9]);
    assert.deepEqual(report(await passphrase({ words: 4 })), [51.7, 'fair', 1.83e5]);
    assert.deepEqual(report(await passphrase({ words: 6 })), [77.5, 'strong', 1.07e13]);
    const twelve = await passphrase({ words: 12, separator: ' ' });
    assert.deepEqual(report(twelve), [155.1, 'veryStrong', 2.45e36]);
    assert.equal(twelve.passwords[0]!.split(' ').length, 12);
  });

  it('capitalizes each word when asked', async () => {
    for (const text of (await passphrase({ capitalize: true, separator: '|', count: 50 })).passwords) {
      for (const word of text.split('|')) {
        assert.match(word, /^[A-Z]/);
        assert.ok(wordSet.has(word.charAt(0).toLowerCase() + word.slice(1)), word);
      }
    }
  });

  it('appends one digit to one word, reaching every digit and every word position', async () => {
    const digits = new Set<string>();
    const positions = new Set<number>();
    // 250 passphrases: a digit is missing with probability 0.9^250 ≈ 3.7e-12 (×10); a position
    // of 3 with (2/3)^250 ≈ 1e-44 (×3).
    for (let round = 0; round < 5; round += 1) {
      const answer = await passphrase({ words: 3, includeNumber: true, separator: '|', count: 50 });
      // 3 · 12.9248 + log2(10 · 3) = 38.7744 + 4.9069 = 43.68 → 43.7; 2^43.7 / 2e10 = 714.3
      assert.deepEqual(report(answer), [43.7, 'fair', 714]);
      for (const text of answer.passwords) {
        assert.equal(text.replace(/[^0-9]/g, '').length, 1, text);
        const parts = text.split('|');
        const position = parts.findIndex((part) => /[0-9]$/.test(part));
        positions.add(position);
        digits.add(parts[position]!.slice(-1));
        assert.ok(wordSet.has(parts[position]!.slice(0, -1)));
      }
    }
    assert.equal(digits.size, 10);
    assert.equal(positions.size, 3);
    // 5 words: 64.624 + log2(50) = 64.624 + 5.6439 = 70.268 → 70.3; 2^70.3 / 2e10 = 7.267e10
    assert.deepEqual(report(await passphrase({ includeNumber: true })), [70.3, 'strong', 7.27e10]);
  });

  it('takes a separator of up to 3 code points, the empty one included', async () => {
    assert.match((await passphrase({ separator: '' })).passwords[0]!, /^[a-z-]+$/);
    assert.equal((await passphrase({ words: 3, separator: '😀😀😀' })).passwords[0]!.split('😀😀😀').length, 3);
    assert.equal((await passphrase({ words: 3, separator: ' + ' })).passwords[0]!.split(' + ').length, 3);
    await rejectsWith(passphrase({ separator: '😀😀😀😀' }), 400, 'validation_failed', ['/separator']);
    await rejectsWith(passphrase({ separator: '----' }), 400, 'validation_failed', ['/separator']);
  });

  it('checks the bounds: words 3–12, count 1–50', async () => {
    assert.equal((await passphrase({ count: 50 })).passwords.length, 50);
    await rejectsWith(passphrase({ words: 2 }), 400, 'validation_failed', ['/words']);
    await rejectsWith(passphrase({ words: 13 }), 400, 'validation_failed', ['/words']);
    await rejectsWith(passphrase({ count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(passphrase({ count: 51 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(passphrase({ capitalize: 1 }), 400, 'validation_failed', ['/capitalize']);
    await rejectsWith(passphrase({ includeNumber: null }), 400, 'validation_failed', ['/includeNumber']);
  });

  it('answers hostile separators with 400: lone surrogates, 10 MB, non-strings', async () => {
    await rejectsWith(passphrase({ separator: '\uD800' }), 400, 'validation_failed', ['/separator']);
    await rejectsWith(passphrase({ separator: 'a\uDFFF' }), 400, 'validation_failed', ['/separator']);
    const started = performance.now();
    await rejectsWith(passphrase({ separator: '-'.repeat(10_000_000) }), 400, 'validation_failed', ['/separator']);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    await rejectsWith(passphrase({ separator: 5 }), 400, 'validation_failed', ['/separator']);
    await rejectsWith(passphrase({ words: 1e308 }), 400, 'validation_failed', ['/words']);
  });
});
