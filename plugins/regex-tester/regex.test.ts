import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import regexTester from './index.js';
import { substitute } from './substitution.js';

after(() => regexTester.close?.());

interface Result {
  matches: { index: number; end: number; text: string; groups: string[]; named: Record<string, string> }[];
  truncated: boolean;
  replaced?: string;
}
const run = async (body: Record<string, unknown>, config?: unknown): Promise<Result> => (await invoke(regexTester, 'test', body, { config })) as Result;
const rejects = (body: Record<string, unknown>, status: number, code: string, config?: unknown): Promise<void> =>
  assert.rejects(invoke(regexTester, 'test', body, { config }), (error: { status?: number; code?: string }) => error.status === status && error.code === code);

describe('regex-tester.test: matching', () => {
  it('finds every match with the default g flag, with index, end and groups', async () => {
    // "a1 b22 c333": \d+ matches "1" at 1, "22" at 4, "333" at 8.
    const result = await run({ pattern: '\\d+', text: 'a1 b22 c333' });
    assert.deepEqual(result, {
      matches: [
        { index: 1, end: 2, text: '1', groups: [], named: {} },
        { index: 4, end: 6, text: '22', groups: [], named: {} },
        { index: 8, end: 11, text: '333', groups: [], named: {} },
      ],
      truncated: false,
    });
  });

  it('gives at most one match without g, and omits replaced without a replacement', async () => {
    const result = await run({ pattern: '\\d+', text: 'a1 b22', flags: '' });
    assert.deepEqual(result, { matches: [{ index: 1, end: 2, text: '1', groups: [], named: {} }], truncated: false });
    assert.equal('replaced' in result, false);
  });

  it('reports a group that took no part as "" (numbered and named)', async () => {
    const result = await run({ pattern: '(?<x>a)|(b)', text: 'b', flags: '' });
    assert.deepEqual(result.matches, [{ index: 0, end: 1, text: 'b', groups: ['', 'b'], named: { x: '' } }]);
  });

  it('honours i, m, s, y and u flags', async () => {
    assert.equal((await run({ pattern: 'ABC', text: 'xabc', flags: 'i' })).matches[0]?.index, 1);
    assert.deepEqual((await run({ pattern: '^b', text: 'a\nb', flags: 'gm' })).matches.map((m) => m.index), [2]);
    assert.equal((await run({ pattern: 'a.b', text: 'a\nb', flags: 's' })).matches.length, 1);
    // Sticky without g: one attempt at index 0 only, so "xa" does not match "a".
    assert.equal((await run({ pattern: 'a', text: 'xa', flags: 'y' })).matches.length, 0);
    // In u mode "." is one code point: 😀 is two UTF-16 units, so the match ends at 2.
    assert.deepEqual((await run({ pattern: '.', text: '😀', flags: 'u' })).matches[0], { index: 0, end: 2, text: '😀', groups: [], named: {} });
  });

  it('steps over a whole surrogate pair after an empty match in u mode (indices 0, 2, 3 on "😀a")', async () => {
    const result = await run({ pattern: 'x*', text: '😀a', flags: 'gu' });
    assert.deepEqual(result.matches.map((match) => match.index), [0, 2, 3]);
  });

  it('caps matches at limit and says truncated only when more exist', async () => {
    const three = await run({ pattern: 'a', text: 'aaa', limit: 2 });
    assert.equal(three.matches.length, 2);
    assert.equal(three.truncated, true);
    const exact = await run({ pattern: 'a', text: 'aa', limit: 2 });
    assert.equal(exact.truncated, false);
    const many = await run({ pattern: 'a', text: 'a'.repeat(5000) });
    assert.equal(many.matches.length, 100); // the default limit
    assert.equal(many.truncated, true);
    assert.equal((await run({ pattern: 'a', text: 'a'.repeat(5000), limit: 1000 })).matches.length, 1000);
  });

  it('refuses limit 0 and 1001, and a non-string pattern, with 400', async () => {
    await rejects({ pattern: 'a', text: 'a', limit: 0 }, 400, 'validation_failed');
    await rejects({ pattern: 'a', text: 'a', limit: 1001 }, 400, 'validation_failed');
    await rejects({ pattern: 1, text: 'a' }, 400, 'validation_failed');
    await rejects({ pattern: 'a' }, 400, 'validation_failed');
  });
});

describe('regex-tester.test: replacement', () => {
  it('supports $1, $<name> and $& (worked by hand)', async () => {
    const result = await run({ pattern: '(?<first>\\w)(\\w*)', text: 'hello world', replacement: '$<first>.[$2]($&)' });
    assert.equal(result.replaced, 'h.[ello](hello) w.[orld](world)');
  });

  it('replaces only the first match without g', async () => {
    assert.equal((await run({ pattern: 'o', text: 'foo', flags: '', replacement: '0' })).replaced, 'f0o');
  });

  it('replaces every match, not only the first `limit` ones', async () => {
    const result = await run({ pattern: 'a', text: 'a'.repeat(50), limit: 1, replacement: 'b' });
    assert.equal(result.replaced, 'b'.repeat(50));
  });

  it('agrees with String.prototype.replace on every replacement pattern', () => {
    const templates = ['$$', '$&', '$`', "$'", '$1', '$2', '$10', '$01', '$3', '$9', '$<n>', '$<none>', '$<n', '$', 'a$'];
    const regex = /(?<n>b)(c)/;
    const subject = 'abcd';
    const match = regex.exec(subject) as RegExpExecArray;
    for (const template of templates) {
      const expected = subject.replace(regex, template);
      const ours = subject.slice(0, match.index) + substitute(template, subject, { matched: match[0], position: match.index, captures: match.slice(1), named: match.groups }) + subject.slice(match.index + 2);
      assert.equal(ours, expected, template);
    }
  });
});

describe('regex-tester.test: hostile input', () => {
  it('answers invalid_regex for a bad pattern or bad flags', async () => {
    await rejects({ pattern: '(', text: 'a' }, 422, 'invalid_regex');
    await rejects({ pattern: 'a', text: 'a', flags: 'gg' }, 422, 'invalid_regex');
    await rejects({ pattern: 'a', text: 'a', flags: 'x' }, 422, 'invalid_regex');
    await rejects({ pattern: 'a', text: 'a', flags: 'uv' }, 422, 'invalid_regex');
  });

  it('names the problem of an invalid pattern once, without echoing the pattern', async () => {
    const pattern = `${'x'.repeat(400_000)}(`;
    await assert.rejects(invoke(regexTester, 'test', { pattern, text: 'a' }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_regex');
      // V8 says "Invalid regular expression: /xxx…(/g: Unterminated group"; we keep only the reason.
      assert.equal(error.message, 'Invalid regular expression: Unterminated group');
      return true;
    });
  });

  // A catastrophic pattern stopped at its time budget needs a worker thread the deadline can end:
  // test/host-threads/regex-tester.test.ts, which hands invoke() the host's threads.

  it('refuses answers that would explode: huge replacement output and huge captured groups', async () => {
    // 1,000,000 empty matches × 100 characters = 100,000,000 characters, far over the 20 MiB budget.
    await rejects({ pattern: '', text: 'a'.repeat(1_000_000), replacement: 'x'.repeat(100) }, 422, 'output_too_large');
    // Each of up to 1000 matches captures the whole 2 MB rest of the text.
    await rejects({ pattern: '(?=([\\s\\S]*))', text: 'a'.repeat(2_000_000), limit: 1000 }, 422, 'output_too_large');
  });

  it('answers regex_too_complex when a repeated group over megabytes overflows the regex stack', async () => {
    await rejects({ pattern: '(a|b)+', text: 'ab'.repeat(3_000_000) }, 422, 'regex_too_complex');
  });

  it('handles a 9 MB text in one request', async () => {
    const result = await run({ pattern: 'b', text: `${'a'.repeat(9_000_000)}b` });
    assert.deepEqual(result.matches.map((match) => match.index), [9_000_000]);
  });
});
