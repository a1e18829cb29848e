// server.heapGrowingPercent (kernel/heap-growth.ts): V8's heap growing factor, set when the
// service starts. V8's flags cannot be read back, so the test counts what the factor decides: the
// full collections a given amount of garbage costs. Each case runs in a fresh process, since the
// flag holds for the whole process.
//
// The arithmetic: the child keeps 16 strings of 1 MiB alive (with the service's own heap, ~20-25 MB
// live after one full collection), then makes 40 MiB of old garbage, one 1 MiB string at a time. V8's
// next limit is live × factor, at least live + 8 MB (its smallest step): at 10 % that is ~33 MB,
// so the 40 MiB must pass it at least once; at the default 400 % (× 5) it is over 100 MB, and
// 40 MiB on top of ~25 MB live never reaches it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const serviceModule = new URL('./support/service.js', import.meta.url).href;

const child = `
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { startTestService } from ${JSON.stringify(serviceModule)};
const percent = process.env.HEAP_GROWING_PERCENT;
const service = await startTestService(percent === undefined ? {} : { server: { heapGrowingPercent: Number(percent) } });
await service.stop();
const bytes = new Uint8Array(2 ** 20);
const decoder = new TextDecoder();
// Flat one-byte strings of 1 MiB each, in V8's large-object space; the bytes differ so none is shared.
const string = (i) => decoder.decode(bytes.fill(97 + (i % 26)));
const live = Array.from({ length: 16 }, (_, i) => string(i));
globalThis.gc();
let majors = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
});
observer.observe({ entryTypes: ['gc'] });
// Each string lives through two scavenges, as a request's body does while its work runs, so it
// dies in the old generation, where only a full collection frees it.
let garbage = '';
for (let i = 0; i < 40; i++) {
  garbage = string(i);
  globalThis.gc({ type: 'minor' });
  globalThis.gc({ type: 'minor' });
}
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
process.stdout.write(JSON.stringify({ majors, live: live.length, last: garbage.length }));
process.exit(0);
`;

async function fullCollections(percent?: number): Promise<number> {
  const env = { ...process.env, HEAP_GROWING_PERCENT: percent === undefined ? undefined : String(percent) };
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', child], { env, timeout: 60_000 });
  const { majors } = JSON.parse(stdout) as { majors: number };
  return majors;
}

describe('server.heapGrowingPercent', () => {
  // V8's own factor, measured on this quiet child, also let the 40 MiB pass (it was near its
  // ceiling of 4), so this case alone would not notice a service that never sets the flag: the
  // next one does.
  it('at its default (400) lets 40 MiB of old garbage pass without a full collection', async () => {
    assert.equal(await fullCollections(), 0);
  });

  it('at 10 collects that garbage at least once: the service hands the setting to V8', async () => {
    assert.ok((await fullCollections(10)) >= 1);
  });
});
