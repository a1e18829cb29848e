import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke, rejectsWith } from '@toolshed/plugin-sdk/testing';
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

  // 1 MB of SQL on one worker thread while small requests answer on another:
  // test/host-threads/sql-formatter.test.ts, which hands invoke() the host's threads.

  it('still formats a reasonable nesting (200 levels) in the worker', async () => {
    const result = (await invoke(sqlFormatter, 'format', formatBody(`SELECT ${'('.repeat(200)}1${')'.repeat(200)}`))) as { sql: string };
    // The library breaks deep parentheses over lines; all 200 pairs survive.
    assert.equal(result.sql.split('(').length - 1, 200);
    assert.equal(result.sql.split(')').length - 1, 200);
  });
});
