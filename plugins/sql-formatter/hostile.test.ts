import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke, rejectsWith } from '@toolshed/plugin-sdk';
import sqlFormatter from './index.js';
import { formatSql, MAX_NESTING, parenthesisDepth } from './format.js';

const formatBody = (sql: string) => ({ sql });

describe('sql-formatter: hostile input', () => {
  it('answers 5,000 nested parentheses with 422 input_too_complex, not 500 or a stack overflow', async () => {
    const started = performance.now();
    const sql = `SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    await rejectsWith(invoke(sqlFormatter, 'format', formatBody(sql)), 422, 'input_too_complex');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('counts nesting before the library runs: 200 levels are formatted, 201 refused at once', () => {
    // Quotes hide parentheses: 'a(' and "b(" and `c(` add nothing; the two real ones nest 2 deep.
    assert.equal(parenthesisDepth(`SELECT (('a(' || "b(" || \`c(\`))`), 2);
    assert.equal(parenthesisDepth('SELECT 1'), 0);
    const nested = (levels: number) => `SELECT ${'('.repeat(levels)}1${')'.repeat(levels)}`;
    assert.equal(typeof formatSql({ sql: nested(MAX_NESTING), dialect: 'sql', keywordCase: 'upper', indent: 2 }), 'string');
    assert.throws(
      () => formatSql({ sql: nested(MAX_NESTING + 1), dialect: 'sql', keywordCase: 'upper', indent: 2 }),
      (error: { status: number; code: string }) => error.status === 422 && error.code === 'input_too_complex',
    );
  });

  it('answers 1 MB of SQL with 200 or 422 input_too_complex, and serves other requests meanwhile', async () => {
    const big = 'SELECT a, b, c FROM t WHERE x = 1 AND y = 2;\n'.repeat(23_000); // 45 characters × 23,000 ≈ 1 MB
    assert.ok(big.length > 1_000_000);
    const settled: string[] = [];
    let loopTurns = 0;
    const ticker = setInterval(() => loopTurns++, 1);
    const started = performance.now();
    const bigJob = invoke(sqlFormatter, 'format', formatBody(big)).then(
      (result) => {
        settled.push('big');
        return { ok: true as const, result };
      },
      (error: { status?: number; code?: string }) => {
        settled.push('big');
        return { ok: false as const, error };
      },
    );
    // Started after the big job, on the pool's second worker: it must not wait for the big one.
    const small = await invoke(sqlFormatter, 'format', formatBody('select 1'));
    settled.push('small');
    assert.deepEqual(small, { sql: 'SELECT\n  1' });
    const minified = await invoke(sqlFormatter, 'minify', formatBody('select  1'));
    assert.deepEqual(minified, { sql: 'select 1' });
    const outcome = await bigJob;
    clearInterval(ticker);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    assert.deepEqual(settled, ['small', 'big']);
    // The main thread kept turning while the big job ran elsewhere.
    assert.ok(loopTurns > 0);
    if (outcome.ok) assert.match((outcome.result as { sql: string }).sql, /^SELECT\n {2}a,/);
    else {
      assert.equal(outcome.error.status, 422);
      assert.equal(outcome.error.code, 'input_too_complex');
    }
  });

  it('still formats a reasonable nesting (200 levels) in the worker', async () => {
    const result = (await invoke(sqlFormatter, 'format', formatBody(`SELECT ${'('.repeat(200)}1${')'.repeat(200)}`))) as { sql: string };
    // The library breaks deep parentheses over lines; all 200 pairs survive.
    assert.equal(result.sql.split('(').length - 1, 200);
    assert.equal(result.sql.split(')').length - 1, 200);
  });
});
