/**
 * Assertions for plugin tests, beside `invoke()`: every plugin checks its refusals the same way.
 */
import assert from 'node:assert/strict';

interface Refusal {
  status?: number;
  code?: string;
  details?: readonly { path: string }[];
}

/**
 * Asserts that `promise` rejects with an SDK error of `status` and `code`; with `paths`, that its
 * `details` name exactly these paths, in order.
 */
export async function rejectsWith(promise: Promise<unknown>, status: number, code: string, paths?: readonly string[]): Promise<void> {
  await assert.rejects(promise, (error: Refusal) => {
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    if (paths !== undefined) assert.deepEqual(error.details?.map((detail) => detail.path), paths);
    return true;
  });
}

/** Asserts that `promise` rejects with 400 `validation_failed` whose `details` name `path`. */
export async function rejectsField(promise: Promise<unknown>, path: string): Promise<void> {
  await assert.rejects(promise, (error: Refusal) => {
    assert.equal(error.status, 400);
    assert.equal(error.code, 'validation_failed');
    assert.ok(error.details?.some((detail) => detail.path === path), `no detail names ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

/**
 * The most a test lets hostile input take before calling it a hang. Deliberately generous: it
 * proves the service does not stall (a quadratic algorithm on megabytes takes minutes) without
 * turning the test suite into a flaky benchmark; speed targets live in `npm run bench`. 30 s
 * leaves room for the slowest legitimate case (several 10 MB inputs on a busy CI machine shared
 * with other jobs) and is still far below what a quadratic algorithm takes.
 */
export const HANG_GUARD_MS = 30_000;
