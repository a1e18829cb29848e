import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke, rejectsWith, resolvePluginConfig } from '@toolshed/plugin-sdk/testing';
import jsonFormatter, { INLINE_LIMIT } from './index.js';
import { formatJson, MAX_OUTPUT, OFFLOAD } from './work.js';

interface Formatted {
  json: string;
  stats: { type: string; keys: number; depth: number };
}
/**
 * These tests check what the answers are, not how fast they come: the worker budget is raised from
 * its 2 s default so a busy CI machine cannot turn a correct 200 into input_too_complex.
 */
const generous = { config: { timeoutMs: 60_000 } };
const run = (operation: string, body: Record<string, unknown>): Promise<unknown> => invoke(jsonFormatter, operation, body, generous);
const format = async (body: Record<string, unknown>): Promise<Formatted> => (await run('format', body)) as Formatted;
const minify = async (json: string, sortKeys = false): Promise<string> => ((await run('minify', { json, sortKeys })) as { json: string }).json;
const validate = async (json: string): Promise<unknown> => run('validate', { json });

/** Runs `work` and fails when it takes long enough to count as a hang (never a speed target). */
async function noHang<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  assert.ok(performance.now() - started < HANG_GUARD_MS, 'took as long as a hang');
  return result;
}

const MIB = 1024 * 1024;
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('json-formatter: deep nesting never touches the call stack', () => {
  it('validates and minifies 100,000 nested arrays', async () => {
    const text = deep(100_000);
    assert.deepEqual(await noHang(() => validate(text)), { valid: true });
    assert.equal(await noHang(() => minify(text)), text);
  });

  it('refuses to pretty-print 100,000 nested arrays: the indentation alone is 2·10^10 characters', async () => {
    // N nested arrays, indent 2: 2N brackets; each of the N−1 non-empty ones adds a line for its child
    // (1 + 2(d+1)) and one for its closing bracket (1 + 2d), d = 0..N−2: Σ(4d + 4) = 2(N−1)(N−2) + 4(N−1).
    // N = 100,000: 200,000 + 399,996 + 19,999,400,004 = 20,000,000,000 = 2N².
    await noHang(() =>
      assert.rejects(run('format', { json: deep(100_000) }), {
        code: 'output_too_large',
        message: `The formatted text would have 20000000000 characters, more than the ${MAX_OUTPUT} an answer may carry (indentation grows with nesting)`,
      }),
    );
  });

  it('pretty-prints 3,000 nested arrays (2N² = 18,000,000 characters) off the main thread', async () => {
    // 6,000 characters of input are handled inline, but their 18 million characters of output are not.
    assert.equal(formatJson(deep(3000), 2, false, INLINE_LIMIT), OFFLOAD);
    const result = await noHang(() => format({ json: deep(3000) }));
    assert.equal(result.json.length, 18_000_000);
    assert.ok(result.json.startsWith('[\n  [\n    [\n      ['));
    assert.ok(result.json.endsWith('\n    ]\n  ]\n]'));
    assert.deepEqual(result.stats, { type: 'array', keys: 0, depth: 3000 });
  });

  it('sorts 100,000 nested objects', async () => {
    const levels = 100_000;
    const text = '{"b":0,"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const sorted = '{"a":'.repeat(levels) + '1' + ',"b":0}'.repeat(levels);
    assert.equal(await noHang(() => minify(text, true)), sorted);
  });

  it('answers unbalanced nesting with the place where it breaks', async () => {
    await assert.rejects(run('format', { json: '['.repeat(100_000) }), {
      code: 'invalid_json_input',
      message: 'Invalid JSON at line 1, column 100001: expected a JSON value, found end of input',
    });
    await assert.rejects(run('minify', { json: `${'['.repeat(100_000)}${']'.repeat(99_999)}}` }), {
      message: "Invalid JSON at line 1, column 200000: expected ',' or ']' after an array element, found '}'",
    });
    assert.deepEqual(await validate(']'.repeat(100_000)), {
      valid: false,
      error: { message: "expected a JSON value, found ']'", line: 1, column: 1 },
    });
    assert.deepEqual(await validate(deep(100_000) + ']'), {
      valid: false,
      error: { message: "unexpected ']' after the JSON value", line: 1, column: 200_001 },
    });
  });
});

describe('json-formatter: 10 MiB inputs', () => {
  // 10 MiB of one array of 21-character elements "17478252242305210114,".
  const count = Math.floor((10 * MIB - 2) / 21);
  const numbers = `[${Array.from({ length: count }, () => '17478252242305210114').join(',')}]`;

  it('formats and minifies half a million big integers without losing a digit', async () => {
    const result = await noHang(() => format({ json: numbers }));
    // 2 brackets + per element: newline, 2 spaces, 20 digits + (count − 1) commas + closing newline.
    assert.equal(result.json.length, 2 + count * 23 + (count - 1) + 1);
    assert.equal(result.json.slice(0, 27), '[\n  17478252242305210114,\n ');
    assert.deepEqual(result.stats, { type: 'array', keys: 0, depth: 1 });
    assert.equal(await noHang(() => minify(result.json)), numbers);
  });

  it('formats 5 million one-digit elements at indent 2 (5n + 2 characters) but not at indent 4 (7n + 2 > 32 Mi)', async () => {
    const n = 5 * MIB - 1; // the text is 2n + 1 characters, just under 10 MiB
    const ones = `[${'1,'.repeat(n - 1)}1]`;
    // Per element: newline + indent + digit, plus the n − 1 commas, 2 brackets and the closing newline.
    assert.equal((await noHang(() => format({ json: ones }))).json.length, 5 * n + 2);
    await noHang(() => rejectsWith(run('format', { json: ones, indent: 4 }), 422, 'output_too_large'));
  });

  it('sorts 10 MiB of members written in reverse order', async () => {
    const members = 500_000;
    const name = (i: number): string => `"k${String(i).padStart(6, '0')}":${i}`;
    const parts: string[] = [];
    for (let i = members - 1; i >= 0; i -= 1) parts.push(name(i));
    const text = `{${parts.join(', ')}}`;
    assert.ok(text.length > 8 * MIB);
    const sorted = await noHang(() => minify(text, true));
    assert.equal(sorted, `{${parts.reverse().join(',')}}`);
  });

  it('validates 10 MiB of nesting and finds an error on its last line', async () => {
    const levels = 5 * MIB;
    assert.deepEqual(await noHang(() => validate(deep(levels))), { valid: true });
    const lines = `[${'{"a": 1},\n'.repeat(MIB - 2)}]`;
    // Lines 1 … MIB − 2 each end in a comma (line 1 starts with "["), line MIB − 1 is "]": the
    // trailing comma is the 9th character of line MIB − 2.
    assert.deepEqual(await noHang(() => validate(lines)), {
      valid: false,
      error: { message: "trailing comma before ']'", line: MIB - 2, column: 9 },
    });
  });

  it('keeps one string of 10 MiB of UTF-8 as it is', async () => {
    const text = `"${'é'.repeat(5 * MIB - 1)}"`;
    assert.equal((await noHang(() => format({ json: text }))).json, text);
  });

  it('answers a small request while a 10 MiB one runs in the worker', async () => {
    const order: string[] = [];
    const big = format({ json: numbers }).then(() => order.push('big'));
    const small = minify('{"a": 1}').then(() => order.push('small'));
    await Promise.all([big, small]);
    assert.deepEqual(order, ['small', 'big']);
  });

  it('has a 2 s budget by default', () => {
    assert.deepEqual(resolvePluginConfig(jsonFormatter, undefined), { timeoutMs: 2000 });
  });

  it('maps a worker job that gives no answer to 422 input_too_complex', async () => {
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(invoke(jsonFormatter, 'minify', { json: numbers }, { signal: controller.signal }), 422, 'input_too_complex');
  });
});
