/**
 * /password. Statistical assertions use a fixed number of draws; the failure probability of each for
 * a correct generator is worked out beside it (all below 1e-9).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import passwordGenerator from './index.js';
import { SYMBOLS } from './password.js';

interface Answer {
  passwords: string[];
  entropyBits: number;
  strength: string;
  crackSeconds: number;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
// Typed out by hand: the printable ASCII characters that are neither letters nor digits.
const PUNCTUATION = '! " # $ % & \' ( ) * + , - . / : ; < = > ? @ [ \\ ] ^ _ ` { | } ~'.split(' ');

async function password(body: Record<string, unknown>): Promise<Answer> {
  return (await invoke(passwordGenerator, 'password', body)) as Answer;
}

const charsOf = (answers: readonly string[]): Set<string> => new Set(answers.flatMap((text) => [...text]));
const has = (text: string, chars: string | readonly string[]): boolean => [...text].some((char) => chars.includes(char));

describe('password-generator.password', () => {
  it('documents exactly the 32 ASCII punctuation characters as symbols', () => {
    assert.equal(PUNCTUATION.length, 32);
    assert.deepEqual([...SYMBOLS].sort(), [...PUNCTUATION].sort());
  });

  it('answers the example with exact entropy, strength and crack time, and a password of its shape', async () => {
    const example = passwordGenerator.operations.password!.examples[0]!;
    const answer = await password(example.body);
    const expected = example.response as Answer;
    assert.deepEqual({ ...answer, passwords: [] }, { ...expected, passwords: [] });
    assert.match(answer.passwords[0]!, /^[0-9]{4}$/);
  });

  it('defaults to one password of 20 characters from all four classes (pool 94)', async () => {
    const answer = await password({});
    assert.equal(answer.passwords.length, 1);
    const [text] = answer.passwords;
    assert.equal(text!.length, 20);
    assert.ok(has(text!, LOWER) && has(text!, UPPER) && has(text!, DIGITS) && has(text!, PUNCTUATION));
    // 20 · log2(94) = 20 · 6.5545888517 = 131.0917… → 131.1; 2^131.1 / 2 / 1e10 = 1.4588e29 → 1.46e29
    assert.deepEqual({ ...answer, passwords: [] }, { passwords: [], entropyBits: 131.1, strength: 'veryStrong', crackSeconds: 1.46e29 });
  });

  it('puts every selected class in every password, even at length 4', async () => {
    // A property of every answer, not a likelihood: 50 passwords × 4 calls.
    for (let round = 0; round < 4; round += 1) {
      for (const text of (await password({ length: 4, count: 50 })).passwords) {
        assert.ok(has(text, LOWER) && has(text, UPPER) && has(text, DIGITS) && has(text, PUNCTUATION), text);
      }
    }
    for (const text of (await password({ length: 4, count: 50, lowercase: false, symbols: false })).passwords) {
      assert.ok(has(text, UPPER) && has(text, DIGITS) && !has(text, LOWER) && !has(text, PUNCTUATION), text);
    }
  });

  it('reaches all 94 characters, and gives distinct passwords', async () => {
    // 50 × 128 = 6400 characters: a given one of 94 is missing with probability ≈ (93/94)^6400 ≈ 2e-30, ×94.
    const { passwords } = await password({ length: 128, count: 50 });
    assert.equal(charsOf(passwords).size, 94);
    // Two of 50 passwords of 94^128 possibilities coinciding: ≤ 1225 / 94^128.
    assert.equal(new Set(passwords).size, 50);
  });

  it('excludes I l 1 O 0 o when asked and still reaches the 88 others', async () => {
    // (87/88)^6400 ≈ 2e-32 per character, ×88.
    const answer = await password({ length: 128, count: 50, excludeAmbiguous: true });
    const seen = charsOf(answer.passwords);
    assert.equal(seen.size, 88);
    for (const ambiguous of ['I', 'l', '1', 'O', '0', 'o']) assert.equal(seen.has(ambiguous), false, ambiguous);
    // 128 · log2(88) = 128 · 6.4594316186 = 826.807… → 826.8; 2^826.8 / 2e10 = 3.9e238
    assert.deepEqual([answer.entropyBits, answer.strength, answer.crackSeconds], [826.8, 'veryStrong', 3.9e238]);
  });

  it('uses only the selected classes: digits without ambiguity are 2–9 (pool 8, 3 bits each)', async () => {
    const answer = await password({ length: 6, lowercase: false, uppercase: false, symbols: false, excludeAmbiguous: true, count: 50 });
    assert.ok(answer.passwords.every((text) => /^[2-9]{6}$/.test(text)));
    // 6 · 3 = 18 bits; 2^18 / 2 / 1e10 = 262144 / 2e10 = 1.31072e-5 → 1.31e-5
    assert.deepEqual([answer.entropyBits, answer.strength, answer.crackSeconds], [18, 'weak', 0.0000131]);
  });

  it('computes entropy from the pool: 8 lowercase, 10 letters, 12 alphanumerics', async () => {
    const lower = await password({ length: 8, uppercase: false, digits: false, symbols: false });
    assert.match(lower.passwords[0]!, /^[a-z]{8}$/);
    // 8 · log2(26) = 8 · 4.7004397181 = 37.6035… → 37.6; 2^37.6 / 2e10 = 10.416 → 10.4
    assert.deepEqual([lower.entropyBits, lower.strength, lower.crackSeconds], [37.6, 'weak', 10.4]);
    // 10 · log2(52) = 10 · 5.7004397181 = 57.0044 → 57; 2^57 / 2e10 = 7 205 759.4 → 7.21e6
    const letters = await password({ length: 10, digits: false, symbols: false });
    assert.deepEqual([letters.entropyBits, letters.strength, letters.crackSeconds], [57, 'fair', 7.21e6]);
    // 12 · log2(62) = 12 · 5.9541963104 = 71.4504 → 71.5; 2^71.5 / 2e10 = 1.6693e11 → 1.67e11
    const alnum = await password({ length: 12, symbols: false });
    assert.deepEqual([alnum.entropyBits, alnum.strength, alnum.crackSeconds], [71.5, 'strong', 1.67e11]);
  });

  it('draws the strength lines at 40, 60 and 80 bits (symbols only: 5 bits a character)', async () => {
    const symbolsOnly = { lowercase: false, uppercase: false, digits: false };
    const at = async (length: number) => {
      const answer = await password({ ...symbolsOnly, length });
      return [answer.entropyBits, answer.strength, answer.crackSeconds];
    };
    assert.deepEqual(await at(7), [35, 'weak', 1.72]); // 2^35 / 2e10 = 34 359 738 368 / 2e10 = 1.718
    assert.deepEqual(await at(8), [40, 'fair', 55]); // 2^40 / 2e10 = 54.98
    assert.deepEqual(await at(11), [55, 'fair', 1.8e6]); // 2^55 / 2e10 = 1 801 439.9
    assert.deepEqual(await at(12), [60, 'strong', 5.76e7]); // 2^60 / 2e10 = 57 646 075.2
    assert.deepEqual(await at(15), [75, 'strong', 1.89e12]); // 2^75 / 2e10 = 1.8889e12
    assert.deepEqual(await at(16), [80, 'veryStrong', 6.04e13]); // 2^80 / 2e10 = 6.0446e13
  });

  it('refuses all classes false with 400 naming the four class fields', async () => {
    const none = { lowercase: false, uppercase: false, digits: false, symbols: false };
    const paths = ['/lowercase', '/uppercase', '/digits', '/symbols'];
    await rejectsWith(password(none), 400, 'validation_failed', paths);
    await rejectsWith(password({ ...none, excludeAmbiguous: true }), 400, 'validation_failed', paths);
  });

  it('checks the bounds: length 4–128, count 1–50', async () => {
    assert.equal((await password({ length: 4 })).passwords[0]!.length, 4);
    assert.equal((await password({ count: 50 })).passwords.length, 50);
    await rejectsWith(password({ length: 3 }), 400, 'validation_failed', ['/length']);
    await rejectsWith(password({ length: 129 }), 400, 'validation_failed', ['/length']);
    await rejectsWith(password({ count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(password({ count: 51 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(password({ length: 20.5 }), 400, 'validation_failed', ['/length']);
    await rejectsWith(password({ symbols: 'false' }), 400, 'validation_failed', ['/symbols']);
  });

  it('answers hostile input with 400: huge numbers, strings for numbers, a 10 MB unknown field', async () => {
    await rejectsWith(password({ length: 1e308 }), 400, 'validation_failed', ['/length']);
    await rejectsWith(password({ count: -1e308 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(password({ length: '20' }), 400, 'validation_failed', ['/length']);
    const started = performance.now();
    await rejectsWith(password({ junk: 'x'.repeat(10_000_000) }), 400, 'validation_failed', ['/junk']);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('generates the largest request (50 × 128, all classes) quickly', async () => {
    const started = performance.now();
    const { passwords } = await password({ length: 128, count: 50 });
    assert.equal(passwords.length, 50);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
