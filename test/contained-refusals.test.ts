// What is wrong with a contained plugin's body or answer is told from the pool when it is not small
// (issue 45, item 4). Checking a body against the plugin's schema is cheap, but describing why it
// fails describes it as each form of a union: with the twenty forms of the fixture, a crafted
// 63 KiB body cost the main thread 44–56 ms to describe. Where the work ran is counted, not timed:
// the jobs the pool answered.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '@toolshed/plugin-sdk';
import { operationContract } from '@toolshed/plugin-sdk/contract';
import { DESCRIBED_HERE_BYTES } from '../kernel/host/executor.js';
import { send } from './support/http.js';
import { buildTestService, fixtures, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  service = await buildTestService({ plugins: { dirs: [path.join(fixtures, 'union-plugins')] } });
  // The plugin's process starts, and the pool's workers load what they run, before anything is counted.
  await send(service.url, '/v1/forms/count', { body: { shape: { k0: 1 } } });
  await send(service.url, '/v1/forms/count', { body: { shape: manyNames(2000) } });
});
after(() => service.stop());

/** A shape that fits none of the forms (no `k…` number), of `count` names; its JSON grows about 13 bytes a name. */
function manyNames(count: number): Record<string, string[]> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`m${index % 20}x${index}`, ['a']]));
}

/** `body`'s answer, and how many jobs the pool ran for it. */
async function withPoolJobs(where: string, body: object): Promise<{ status: number; json: unknown; poolJobs: number }> {
  const before = service.host.poolStats().answered;
  const answer = await send(service.url, where, { body });
  return { status: answer.status, json: answer.json, poolJobs: service.host.poolStats().answered - before };
}

const refusal = { code: 'validation_failed', message: 'The request body does not match the schema' };

/** The details `count` refuses `body` with, described in this thread by the operation's own contract. */
async function detailsHere(body: object): Promise<unknown> {
  const plugin = ((await import(path.join(fixtures, 'union-plugins', 'forms', 'index.js'))) as { default: Plugin }).default;
  try {
    operationContract(plugin, 'count').accept(structuredClone(body));
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  throw new Error('the body was accepted');
}

describe("a contained plugin's body that breaks its schema", { timeout: 60_000 }, () => {
  it('is described on the main thread when small: the same 400, no pool job', async () => {
    const body = { shape: manyNames(20) };
    assert.ok(JSON.stringify(body).length < DESCRIBED_HERE_BYTES);
    const { status, json, poolJobs } = await withPoolJobs('/v1/forms/count', body);
    assert.equal(status, 400);
    assert.deepEqual((json as { error: Record<string, unknown> }).error, { ...refusal, details: await detailsHere(body) });
    assert.equal(poolJobs, 0);
  });

  it('is described on the pool when over 8 KiB, with the same details as here', async () => {
    const body = { shape: manyNames(3800) };
    assert.ok(JSON.stringify(body).length > 60 * 1024 && JSON.stringify(body).length < 64 * 1024);
    const large = await withPoolJobs('/v1/forms/count', body);
    assert.equal(large.status, 400);
    assert.equal(large.poolJobs, 1, 'one job described it on the pool');
    const { error } = large.json as { error: { code: string; message: string; details: unknown } };
    assert.deepEqual([error.code, error.message], [refusal.code, refusal.message]);
    assert.deepEqual(error.details, await detailsHere(body));
  });

  it('that fits is checked here and sent on, whatever its size under workers.offloadBytes: no pool job', async () => {
    const shape = { k3: 1, m3: Array.from({ length: 4000 }, () => 'abcdefghij') };
    const { status, json, poolJobs } = await withPoolJobs('/v1/forms/count', { shape });
    assert.deepEqual([status, json, poolJobs], [200, { names: 2 }, 0]);
  });
});

describe("a contained plugin's answer that breaks its response schema", { timeout: 60_000 }, () => {
  it('is a 500, described on the pool when over 8 KiB and on the main thread when small', async () => {
    const large = await withPoolJobs('/v1/forms/echo', { shape: manyNames(1000) });
    assert.deepEqual([large.status, (large.json as { error: { code: string } }).error.code, large.poolJobs], [500, 'internal_error', 1]);
    const small = await withPoolJobs('/v1/forms/echo', { shape: manyNames(5) });
    assert.deepEqual([small.status, (small.json as { error: { code: string } }).error.code, small.poolJobs], [500, 'internal_error', 0]);
  });

  it('that fits is sent as checked here: no pool job', async () => {
    const { status, json, poolJobs } = await withPoolJobs('/v1/forms/echo', { shape: { k7: 2, m7: ['a', 'b'] } });
    assert.deepEqual([status, json, poolJobs], [200, { shape: { k7: 2, m7: ['a', 'b'] } }, 0]);
  });
});
