import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke } from '@toolshed/plugin-sdk/testing';
import sqlFormatter from './index.js';
import { lineAndColumn, minifySql } from './minify.js';

const minify = async (sql: string): Promise<string> => ((await invoke(sqlFormatter, 'minify', { sql })) as { sql: string }).sql;

async function rejectsAt(sql: string, message: string): Promise<void> {
  await assert.rejects(minify(sql), (error: { status: number; code: string; message: string }) => {
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_sql');
    assert.equal(error.message, message);
    return true;
  });
}

describe('sql-formatter.minify', () => {
  it('puts everything on one line, drops comments and collapses whitespace', async () => {
    assert.equal(await minify('SELECT a,\n  b\t\tFROM   t\r\n-- trailing\n'), 'SELECT a, b FROM t');
    assert.equal(await minify('  SELECT 1 ;\n\nSELECT 2 ; '), 'SELECT 1; SELECT 2;');
    assert.equal(await minify('SELECT count( * ) FROM t WHERE x IN ( 1 , 2 )'), 'SELECT count(*) FROM t WHERE x IN (1, 2)');
    assert.equal(await minify(''), '');
    assert.equal(await minify(' \n\t-- only a comment'), '');
    // A carriage return alone ends a line comment too.
    assert.equal(await minify('SELECT a -- c\rFROM t'), 'SELECT a FROM t');
  });

  it('never glues two tokens where whitespace or a comment separated them', async () => {
    assert.equal(await minify('SELECT\na\nFROM\nt'), 'SELECT a FROM t');
    assert.equal(await minify('SELECT/* c */a/**/FROM--x\nt'), 'SELECT a FROM t');
    // "-" then "-1" must not become "--1", which would start a comment.
    assert.equal(await minify('SELECT a - -1'), 'SELECT a - -1');
    assert.equal(await minify('SELECT a -/* x */-1'), 'SELECT a - -1');
    assert.equal(await minify('SELECT a /\n* b'), 'SELECT a / * b');
    assert.equal(await minify('SELECT a < > b, c < = d'), 'SELECT a < > b, c < = d');
    // "E" and a string after a space are two tokens; glued they would be an escape string.
    assert.equal(await minify("SELECT E  'x'"), "SELECT E 'x'");
    // Tokens that touched in the source still touch.
    assert.equal(await minify('SELECT a-b, x::int FROM t'), 'SELECT a-b, x::int FROM t');
  });

  it('copies strings and quoted identifiers exactly, with doubled quotes inside', async () => {
    assert.equal(await minify("SELECT 'a  --b  /* c */', 'it''s  ok'"), "SELECT 'a  --b  /* c */', 'it''s  ok'");
    assert.equal(await minify('SELECT "my  col", "say ""hi""  " FROM t'), 'SELECT "my  col", "say ""hi""  " FROM t');
    assert.equal(await minify('SELECT `a  b`, `x``  y` FROM t'), 'SELECT `a  b`, `x``  y` FROM t');
    assert.equal(await minify('SELECT [first  name], [a]]  b] FROM t'), 'SELECT [first  name], [a]]  b] FROM t');
    // A line break inside a literal is part of its value and stays.
    assert.equal(await minify("SELECT 'line1\n  line2'"), "SELECT 'line1\n  line2'");
  });

  it('honours backslash escapes only in E strings (standard strings take a backslash literally)', async () => {
    assert.equal(await minify("SELECT E'it\\'s  -- x'  ,  1"), "SELECT E'it\\'s  -- x', 1");
    assert.equal(await minify("SELECT e'a\\\\'  ,  'C:\\'  ,  2"), "SELECT e'a\\\\', 'C:\\', 2");
    // "NAME'x'" is not an escape string: the E belongs to an identifier.
    assert.equal(await minify("SELECT NAME'x\\'  , 1"), "SELECT NAME'x\\', 1");
  });

  it('copies dollar-quoted bodies exactly, and keeps $1 parameters and a$b identifiers as text', async () => {
    const fn = 'CREATE FUNCTION f() RETURNS int AS $$\n  -- inside\n  SELECT  1;\n$$ LANGUAGE sql';
    assert.equal(await minify(fn), 'CREATE FUNCTION f() RETURNS int AS $$\n  -- inside\n  SELECT  1;\n$$ LANGUAGE sql');
    assert.equal(await minify("SELECT $body$ it's $$ here $body$ ,  2"), "SELECT $body$ it's $$ here $body$, 2");
    assert.equal(await minify('SELECT a$b$ ,  $1  +  $2 FROM t WHERE x = $3'), 'SELECT a$b$, $1 + $2 FROM t WHERE x = $3');
  });

  it('treats nested block comments as one comment (PostgreSQL), and keeps hints and MySQL /*! */ code', async () => {
    assert.equal(await minify('SELECT /* a /* b */ c */ 1'), 'SELECT 1');
    assert.equal(await minify('SELECT /*+ INDEX(t i) */ a FROM t'), 'SELECT /*+ INDEX(t i) */ a FROM t');
    assert.equal(await minify('SELECT /*!40001 SQL_NO_CACHE */ a'), 'SELECT /*!40001 SQL_NO_CACHE */ a');
  });

  it('answers 422 invalid_sql with the line and column of an unterminated literal or comment', async () => {
    await rejectsAt("SELECT 1;\nSELECT 'abc", 'Unterminated string literal starting at line 2, column 8');
    await rejectsAt('SELECT "abc', 'Unterminated quoted identifier starting at line 1, column 8');
    await rejectsAt('SELECT [abc', 'Unterminated quoted identifier starting at line 1, column 8');
    await rejectsAt('\n\n  /* never closed', 'Unterminated block comment starting at line 3, column 3');
    await rejectsAt('SELECT /* a /* b */ 1', 'Unterminated block comment starting at line 1, column 8');
    await rejectsAt('SELECT $x$ body', 'Unterminated dollar-quoted string starting at line 1, column 8');
    await rejectsAt("SELECT E'a\\'", 'Unterminated string literal starting at line 1, column 9');
  });

  it('counts lines and columns from 1', () => {
    assert.deepEqual(lineAndColumn('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(lineAndColumn('ab\ncd', 4), { line: 2, column: 2 });
  });

  it('minifies 10 MiB in linear time, hostile shapes included', async () => {
    const started = performance.now();
    const unit = "SELECT  a ,\n b -- note\n FROM t /* c */ WHERE s = 'x  y';\n"; // 55 characters
    const big = unit.repeat(Math.ceil((10 * 1024 * 1024) / unit.length));
    const result = await minify(big);
    assert.equal(result, "SELECT a, b FROM t WHERE s = 'x  y';".repeat(Math.ceil((10 * 1024 * 1024) / unit.length)).replaceAll(';SELECT', '; SELECT'));
    // An unterminated string at the start of 10 MiB: one search, not a rescan per character.
    await rejectsAt(`'${'a'.repeat(10 * 1024 * 1024)}`, 'Unterminated string literal starting at line 1, column 1');
    // Millions of openers of nested comments, and millions of lone quotes doubled.
    await rejectsAt(`/*${'/*'.repeat(2_000_000)}`, 'Unterminated block comment starting at line 1, column 1');
    assert.equal(minifySql(`'${"''".repeat(2_000_000)}'`).length, 4_000_002);
    assert.equal(minifySql('(\n'.repeat(3_000_000)), '('.repeat(3_000_000));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
