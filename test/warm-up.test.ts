// The background warm-up after listening (kernel/host/warm-up.ts): one pool worker is started, so a pool
// operation's first call does not wait for a thread to boot; nothing else runs ahead of time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { buildTestService, type InProcessService } from './support/service.js';

describe('the warm-up after listening', () => {
  describe('when on', () => {
    let service: InProcessService;
    before(async () => {
      service = await buildTestService({ operations: { warmUp: true } }, { builtinDir: builtinPluginDir });
    });
    after(() => service.stop());

    it('starts one pool worker and runs no operation', async () => {
      await service.warmedUp;
      assert.equal(service.host.poolStats().workers, 1);
      assert.ok(service.logs.some((entry) => entry.includes('"msg":"pool worker started"')));
      // Nothing of it is a request, and no example ran: no access-log line, no job besides the one.
      assert.equal(service.logs.filter((entry) => entry.includes('"msg":"request"')).length, 0);
      assert.equal(service.host.poolStats().completed, 1);
    });
  });

  describe('when off', () => {
    let service: InProcessService;
    before(async () => {
      service = await buildTestService({ operations: { warmUp: false } }, { builtinDir: builtinPluginDir });
    });
    after(() => service.stop());

    it('starts no pool worker', async () => {
      await service.warmedUp;
      assert.equal(service.host.poolStats().workers, 0);
    });
  });
});
