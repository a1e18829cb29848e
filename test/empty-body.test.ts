// An empty or blank body is not a JSON object (contract rules 1 and 4): every operation refuses it
// with 400 invalid_json saying to send {}, also the operations that need no field, where an empty
// body once answered 200 (issue 22).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

const refusal = {
  error: { code: 'invalid_json', message: 'The request body is empty; send a JSON object, {} when the operation needs no field', details: [] },
};

describe('an empty body', () => {
  it('is 400 invalid_json on every operation with no required field, while {} is read', async () => {
    const optional = [...service.registry.operations.values()].filter(({ operation }) => !Array.isArray((operation.requestSchema as { required?: unknown }).required));
    // Nine operations need no field (currency rates, lorem, passwords, random numbers, dice, coins, uuid generate…).
    assert.ok(optional.length >= 9, optional.map(({ path }) => path).join(' '));
    for (const { path } of optional) {
      // No body at all, an empty Content-Length, and JSON whitespace only (each with Content-Type: application/json).
      for (const [body, headers] of [[undefined, {}], ['', { 'Content-Type': 'application/json' }], [' \r\n\t ', { 'Content-Type': 'application/json' }]] as const) {
        const answer = await send(service.url, path, { body, headers });
        assert.equal(answer.status, 400, `${path} ${JSON.stringify(body)}`);
        assert.deepEqual(answer.json, refusal, `${path} ${JSON.stringify(body)}`);
      }
      // {} is read as a body: whatever the operation says of it, it is not invalid_json.
      const object = await send(service.url, path, { body: {} });
      assert.notEqual((object.json as { error?: { code: string } }).error?.code, 'invalid_json', `${path} {}`);
    }
  });
});
