// sql-formatter's 1 MB of SQL on one of the host's worker threads while small requests answer on
// another: a test beside the plugin may not import the host (.dependency-cruiser.mjs), so this one
// lives here and hands invoke() the host's threads (service/testing.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke } from '@toolshed/plugin-sdk/testing';
import sqlFormatter from '../../plugins/sql-formatter/index.js';
import { runInWorker } from '../../service/testing.js';

const formatBody = (sql: string) => ({ sql });

describe('sql-formatter: hostile input on the host\'s worker threads', () => {
  it('answers 1 MB of SQL with 200 or 422 input_too_complex, and serves other requests meanwhile', async () => {
    const big = 'SELECT a, b, c FROM t WHERE x = 1 AND y = 2;\n'.repeat(23_000); // 45 characters × 23,000 ≈ 1 MB
    assert.ok(big.length > 1_000_000);
    // Both threads started and sql-formatter loaded in each first: cold, the small job's thread
    // could still be starting on a busy machine when the big job's 2 s deadline ends it.
    await Promise.all(['select 1', 'select 2'].map((sql) => invoke(sqlFormatter, 'format', formatBody(sql), { runInWorker })));
    const settled: string[] = [];
    let loopTurns = 0;
    const ticker = setInterval(() => loopTurns++, 1);
    const started = performance.now();
    const bigJob = invoke(sqlFormatter, 'format', formatBody(big), { runInWorker }).then(
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
    const small = await invoke(sqlFormatter, 'format', formatBody('select 1'), { runInWorker });
    settled.push('small');
    assert.deepEqual(small, { sql: 'SELECT\n  1' });
    const minified = await invoke(sqlFormatter, 'minify', formatBody('select  1'), { runInWorker });
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
});
