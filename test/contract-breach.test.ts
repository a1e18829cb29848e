// A plugin that breaks its own manifest is a 500 for that request, logged with the operation and
// what it broke, never with the input; on the main thread and on the worker pool alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  service = await buildTestService({ workers: { offloadBytes: 1024, requestBudgetMs: 60_000 }, server: { writeTimeoutMs: 90_000 } });
});
after(() => service.stop());

/** The log line of the request with this id. */
function logOf(requestId: string): Record<string, unknown> {
  const line = service.logs.join('').split('\n').find((text) => text.includes(`"requestId":"${requestId}"`) && text.includes('"request failed"'));
  assert.ok(line !== undefined, `a 'request failed' line for ${requestId}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe('a handler that breaks its manifest', () => {
  for (const [where, text] of [['on the main thread', 'secret-small'], ['on the worker pool', `secret-${'x'.repeat(2000)}`]] as const) {
    it(`never sends an answer outside its schema (${where}): 500, logged with the pointer`, async () => {
      const answer = await send(service.url, '/v1/kernel-probe/leak', { body: { text }, headers: { 'Content-Type': 'application/json', 'X-Request-Id': `leak-${text.length}` } });
      assert.equal(answer.status, 500);
      assert.equal((answer.json as { error: { code: string } }).error.code, 'internal_error');
      assert.ok(!answer.text.includes('secret'), 'the leaked field is not sent');
      const log = logOf(`leak-${text.length}`);
      assert.equal(log.operation, 'kernel-probe.leak');
      // The field is named with its reason; its value (the request's text) is not.
      assert.deepEqual(log.fault, { operation: 'kernel-probe.leak', pointers: ['/leak'], problems: ['/leak: not declared in the response schema'] });
      assert.ok(!JSON.stringify(log).includes('secret'), 'the input never reaches the log');
    });

    it(`logs an undeclared 422 code with the operation (${where}), not the message`, async () => {
      const answer = await send(service.url, '/v1/kernel-probe/undeclared', { body: { text }, headers: { 'Content-Type': 'application/json', 'X-Request-Id': `undeclared-${text.length}` } });
      assert.equal(answer.status, 500);
      const log = logOf(`undeclared-${text.length}`);
      assert.equal(log.operation, 'kernel-probe.undeclared');
      assert.deepEqual(log.fault, { operation: 'kernel-probe.undeclared', undeclaredCode: 'surprise' });
      assert.ok(!JSON.stringify(log).includes('not declared'), 'the message is not logged');
    });

    it(`treats a plugin's code outside the operation's own errors list as undeclared (${where})`, async () => {
      const answer = await send(service.url, '/v1/kernel-probe/declared-elsewhere', { body: { text }, headers: { 'Content-Type': 'application/json', 'X-Request-Id': `elsewhere-${text.length}` } });
      assert.equal(answer.status, 500);
      assert.deepEqual(logOf(`elsewhere-${text.length}`).fault, { operation: 'kernel-probe.declared-elsewhere', undeclaredCode: 'declared_problem' });
    });
  }
});
