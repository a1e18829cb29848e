// What a recipe costs and what the service reserves for recipes (issue 40), over real HTTP: each
// step counts as one request against the caller's rate limit, refused whole with 429 before any
// step runs, at POST /v1/recipes/run and through MCP over HTTP alike; identify costs one request;
// the group `recipes` is the service's and no plugin may take it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { digestApiKey } from '../kernel/http/api-keys.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { startResolver, type FakeResolver } from '../plugins/dns-lookup/fake-resolver.js';
import { send } from './support/http.js';
import { JWT_LAYERS } from './support/recipes.js';
import { fixtures, buildTestService, type InProcessService } from './support/service.js';

const threeSteps = { input: JWT_LAYERS, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] };
/** Three DNS lookups: had any run, the fake resolver would have seen its query. */
const threeLookups = { steps: Array.from({ length: 3 }, () => ({ operation: 'dns-lookup/lookup', body: { name: 'example.com', types: ['A'] } })) };
const agentKey = 'tsk_recipes-agent-0123456789';
const identifyKey = 'tsk_recipes-identify-0123456';

let resolver: FakeResolver;
let service: InProcessService;
before(async () => {
  resolver = await startResolver();
  const keys = [{ name: 'agent', sha256: digestApiKey(agentKey) }, { name: 'identify', sha256: digestApiKey(identifyKey) }];
  service = await buildTestService(
    { rateLimit: { anonymous: { max: 5 }, apiKey: { max: 5 } }, auth: { apiKeys: keys }, dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } } },
    { builtinDir: builtinPluginDir },
  );
});
after(async () => {
  await service.stop();
  await resolver.close();
});

type ErrorBody = { error: { code: string } };

describe('the rate limit counts a recipe\'s steps', () => {
  it('with a budget of 5: a 3-step recipe passes and leaves 2, a second is 429 and runs nothing, one request still fits', async () => {
    const first = await send(service.url, '/v1/recipes/run', { body: threeSteps });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers['ratelimit-remaining'], '2');
    const second = await send(service.url, '/v1/recipes/run', { body: threeLookups });
    assert.equal(second.status, 429, second.text);
    assert.equal((second.json as ErrorBody).error.code, 'rate_limited');
    assert.match(String(second.headers['retry-after']), /^[1-9]\d*$/);
    assert.equal(second.headers['ratelimit-limit'], '5');
    assert.equal(second.headers['ratelimit-remaining'], '1');
    assert.equal(resolver.queries.length, 0, 'no step of the refused recipe ran');
    // The refused recipe counted its own request only: one more single request fits, then none.
    const single = await send(service.url, '/v1/base64/encode', { body: { text: 'hi' } });
    assert.equal(single.status, 200);
    assert.equal(single.headers['ratelimit-remaining'], '0');
    assert.equal((await send(service.url, '/v1/base64/encode', { body: { text: 'hi' } })).status, 429);
  });

  it('through MCP over HTTP too: the refusal is a rate_limited tool error and no step runs', async () => {
    const call = (id: number, args: unknown) =>
      send(service.url, '/mcp', {
        body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'recipes_run', arguments: args } },
        headers: { Authorization: `Bearer ${agentKey}`, Accept: 'application/json, text/event-stream' },
      });
    const first = await call(1, threeSteps);
    assert.equal((first.json as { result: { isError?: boolean } }).result.isError, undefined, first.text);
    assert.equal(first.headers['ratelimit-remaining'], '2');
    const second = await call(2, threeLookups);
    const result = (second.json as { result: { isError: boolean; content: { text: string }[] } }).result;
    assert.equal(result.isError, true);
    assert.equal((JSON.parse(result.content[0]!.text) as ErrorBody).error.code, 'rate_limited');
    assert.equal(second.headers['ratelimit-remaining'], '1');
    assert.equal(resolver.queries.length, 0);
  });

  it('counts identify as one request, however many operations it tries', async () => {
    const answer = await send(service.url, '/v1/recipes/identify', { body: { input: JWT_LAYERS, depth: 5, limit: 20 }, headers: { Authorization: `Bearer ${identifyKey}` } });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers['ratelimit-remaining'], '4');
  });
});

describe('the answer cap', () => {
  it('holds a recipe\'s whole answer to server.maxAnswerBytes, each step within it: 422 output_too_large', async () => {
    const capped = await buildTestService({ server: { maxAnswerBytes: 1024 } }, { builtinDir: builtinPluginDir });
    try {
      // 600 bytes of text: its Base64 is 800 bytes, each answer below 1,024; both together above it.
      const recipe = { input: 'x'.repeat(600), keep: 'all', steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }] };
      const all = await send(capped.url, '/v1/recipes/run', { body: recipe });
      assert.equal(all.status, 422, all.text);
      assert.equal((all.json as ErrorBody).error.code, 'output_too_large');
      assert.equal((await send(capped.url, '/v1/recipes/run', { body: { ...recipe, keep: 'last' } })).status, 200);
    } finally {
      await capped.stop();
    }
  });
});

describe('what the service reserves for recipes', () => {
  it('refuses a plugin in the group recipes at start, naming where it comes from', async () => {
    const dir = `${fixtures}reserved-group`;
    await assert.rejects(buildTestService({ plugins: { dirs: [dir] } }, { builtinDir: builtinPluginDir }), (error: Error) => {
      assert.equal(error.message, `Invalid configuration:\n- /plugins: loads "recipes" from ${dir}/recipes/index.js, but that group is reserved: the service serves /v1/recipes/ itself`);
      return true;
    });
  });

  it('owns the recipes section: a key near it is still unknown, with the nearest named', async () => {
    await assert.rejects(buildTestService({ recipe: {} }), (error: Error) => {
      assert.equal(error.message, 'Invalid configuration:\n- /recipe: is not a known configuration key; did you mean "recipes"?');
      return true;
    });
  });
});
