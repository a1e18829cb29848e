/** Shared by this folder's tests and test/host-threads/data-converter.test.ts. */
import assert from 'node:assert/strict';
import type { RunInWorker } from '@toolshed/plugin-sdk';
import { HANG_GUARD_MS, invoke } from '@toolshed/plugin-sdk/testing';
import dataConverter from './index.js';

/** The plugin's documented 422 codes. */
export const DOCUMENTED = new Set(Object.keys(dataConverter.errors ?? {}));

/**
 * Converts `body` and returns 'ok' or the documented 422 code; anything else (a 500, a crash, a hang)
 * fails the test. `timeoutMs` sets the conversion's budget (dataConverter.timeoutMs): raised where
 * the answer, not the machine's speed, is asserted, lowered where a refusal is all that is asserted;
 * `runInWorker` hands in the host's worker threads.
 */
export async function outcome(body: Record<string, unknown>, timeoutMs?: number, runInWorker?: RunInWorker): Promise<string> {
  const started = performance.now();
  try {
    await invoke(dataConverter, 'convert', body, { config: timeoutMs === undefined ? undefined : { timeoutMs }, runInWorker });
    return 'ok';
  } catch (error) {
    const { status, code } = error as { status?: number; code?: string };
    assert.equal(status, 422, `expected a 422, got ${String(status)} ${String(code)}`);
    assert.ok(code !== undefined && DOCUMENTED.has(code), `undocumented code ${String(code)}`);
    return code;
  } finally {
    assert.ok(performance.now() - started < HANG_GUARD_MS, 'no hang');
  }
}
