/** Waiting in tests for what a service, a worker or a child process does on its own time. */
import assert from 'node:assert/strict';

/**
 * How long {@link until} polls before it fails: a guard against a hang, not a timing. Longer than
 * any wait a test makes on purpose (a contained plugin's longest restart pause is 30 s).
 */
const HANG_GUARD_MS = 120_000;

/** Resolves once `check` holds, polling every 10 ms; fails naming `what` if it never does. */
export async function until(check: () => boolean, what = 'the condition waited for'): Promise<void> {
  const giveUp = Date.now() + HANG_GUARD_MS;
  while (!check()) {
    assert.ok(Date.now() < giveUp, `never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
