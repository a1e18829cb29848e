import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { format } from 'sql-formatter';
import { invoke, rejectsField } from '@toolshed/plugin-sdk/testing';
import sqlFormatter from './index.js';
import { DIALECT_LANGUAGES, DIALECTS } from './dialects.data.js';

const formatSql = async (body: Record<string, unknown>): Promise<string> => ((await invoke(sqlFormatter, 'format', body)) as { sql: string }).sql;

describe('sql-formatter.format', () => {
  it('answers every manifest example exactly', async () => {
    for (const name of ['format', 'minify'] as const) {
      for (const example of sqlFormatter.operations[name]!.examples) {
        assert.deepEqual(await invoke(sqlFormatter, name, example.body), example.response, example.title);
      }
    }
  });

  it('puts one clause or item per line, upper-case keywords and 2 spaces by default', async () => {
    assert.equal(
      await formatSql({ sql: 'select a, b from t where x = 1 and y = 2' }),
      ['SELECT', '  a,', '  b', 'FROM', '  t', 'WHERE', '  x = 1', '  AND y = 2'].join('\n'),
    );
  });

  it('indents by 4 spaces or a tab on request', async () => {
    const sql = 'select a from t';
    assert.equal(await formatSql({ sql, indent: 4 }), 'SELECT\n    a\nFROM\n    t');
    assert.equal(await formatSql({ sql, indent: 'tab' }), 'SELECT\n\ta\nFROM\n\tt');
  });

  it('applies keywordCase lower and preserve (identifiers are never recased)', async () => {
    assert.equal(await formatSql({ sql: 'SELECT MyCol FROM T', keywordCase: 'lower' }), 'select\n  MyCol\nfrom\n  T');
    assert.equal(await formatSql({ sql: 'Select a FROM t', keywordCase: 'preserve' }), 'Select\n  a\nFROM\n  t');
  });

  it('recases data types with the keywords but leaves function names as written', async () => {
    const sql = 'select cast(a as varchar(10)), count(*) from t';
    assert.equal(await formatSql({ sql, dialect: 'postgresql' }), 'SELECT\n  cast(a AS VARCHAR(10)),\n  count(*)\nFROM\n  t');
    assert.equal(await formatSql({ sql: sql.toUpperCase(), dialect: 'postgresql', keywordCase: 'lower' }), 'select\n  CAST(A as varchar(10)),\n  COUNT(*)\nfrom\n  T');
  });

  it('formats T-SQL brackets and TOP with dialect tsql (sql-formatter\'s transactsql)', async () => {
    const sql = 'select top 10 [first name], count(*) as n from dbo.people group by [first name]';
    assert.equal(
      await formatSql({ sql, dialect: 'tsql', indent: 4 }),
      'SELECT\n    TOP 10 [first name],\n    count(*) AS n\nFROM\n    dbo.people\nGROUP BY\n    [first name]',
    );
  });

  it('formats MySQL backticks, and separates statements by a blank line (sqlite)', async () => {
    assert.equal(
      await formatSql({ sql: "select `a`, b from t where c like 'x%' limit 2", dialect: 'mysql', keywordCase: 'lower' }),
      "select\n  `a`,\n  b\nfrom\n  t\nwhere\n  c like 'x%'\nlimit\n  2",
    );
    assert.equal(await formatSql({ sql: 'select a from t; select b from u', dialect: 'sqlite' }), 'SELECT\n  a\nFROM\n  t;\n\nSELECT\n  b\nFROM\n  u');
  });

  it('maps every contract dialect to a language the installed sql-formatter knows', async () => {
    assert.equal(DIALECTS.length, 16);
    assert.equal(DIALECT_LANGUAGES.tsql, 'transactsql');
    for (const dialect of DIALECTS) {
      // The library throws ConfigError for an unknown language, so this proves each name exists.
      assert.equal(format('select 1', { language: DIALECT_LANGUAGES[dialect] }), 'select\n  1', dialect);
      assert.equal(await formatSql({ sql: 'select 1', dialect }), 'SELECT\n  1', dialect);
    }
  });

  it('answers "" for empty input', async () => {
    assert.equal(await formatSql({ sql: '' }), '');
  });

  it('reports a syntax error as 422 invalid_sql with line and column, without quoting the input', async () => {
    // "SELECT a FROM t\nWHERE b = 1)": the stray ")" is the 12th character of line 2.
    await assert.rejects(invoke(sqlFormatter, 'format', { sql: 'SELECT a FROM t\nWHERE b = 1)', dialect: 'postgresql' }), (error: { status: number; code: string; message: string }) => {
      assert.equal(error.status, 422);
      assert.equal(error.code, 'invalid_sql');
      assert.equal(error.message, 'The SQL cannot be parsed as postgresql at line 2, column 12');
      return true;
    });
    // An unterminated string: the lexer stops at its quote, column 8 of line 1.
    const secret = "SELECT 'abc" + 'x'.repeat(10_000);
    await assert.rejects(invoke(sqlFormatter, 'format', { sql: secret }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_sql');
      assert.match(error.message, /at line 1, column 8$/);
      assert.ok(error.message.length < 100);
      return true;
    });
    // Missing ")" at the end: the parser reports the end of input, just past the last of 28 characters.
    await assert.rejects(invoke(sqlFormatter, 'format', { sql: 'SELECT a FROM t WHERE (b = 1' }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_sql');
      assert.equal(error.message, 'The SQL cannot be parsed as sql at line 1, column 29');
      return true;
    });
  });

  it('refuses an unknown dialect, keywordCase or indent, and the string "2", with 400', async () => {
    await rejectsField(invoke(sqlFormatter, 'format', { sql: 'select 1', dialect: 'oracle' }), '/dialect');
    await rejectsField(invoke(sqlFormatter, 'format', { sql: 'select 1', keywordCase: 'title' }), '/keywordCase');
    await rejectsField(invoke(sqlFormatter, 'format', { sql: 'select 1', indent: 3 }), '/indent');
    await rejectsField(invoke(sqlFormatter, 'format', { sql: 'select 1', indent: '2' }), '/indent');
    await rejectsField(invoke(sqlFormatter, 'format', { sql: 'select 1', extra: true }), '/extra');
    await rejectsField(invoke(sqlFormatter, 'format', {}), '/sql');
  });
});
