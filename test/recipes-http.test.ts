// Recipes and identify over real HTTP (issue 40): the issue's examples as POST /v1/recipes/run and
// /v1/recipes/identify, checks before anything runs, a failing step, saved recipes from the
// configuration, and identify never reaching an upstream. Loopback fakes stand in for the DNS
// resolver and the currency feed, so "nothing ran" is counted where it would have gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFeed, type FakeFeed } from '../plugins/currency-converter/fake-feed.js';
import { startResolver, type FakeResolver } from '../plugins/dns-lookup/fake-resolver.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { ISSUE_46_EXAMPLES, JWT_ANSWER, JWT_BASE64, JWT_LAYERS, SAVED } from './support/recipes.js';
import { buildTestService, type InProcessService } from './support/service.js';

/** Three DNS lookups: each would reach the resolver, so its query count says whether any ran. */
const lookups = (count: number) => Array.from({ length: count }, () => ({ operation: 'dns-lookup/lookup', body: { name: 'example.com', types: ['A'] } }));

let resolver: FakeResolver;
let feed: FakeFeed;
let service: InProcessService;
type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

before(async () => {
  resolver = await startResolver();
  feed = await startFeed();
  const upstreams = { dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } }, currency: { ratesUrl: feed.url } };
  service = await buildTestService({ ...upstreams, recipes: SAVED }, { builtinDir: builtinPluginDir });
});
after(async () => {
  await service.stop();
  await resolver.close();
  await feed.close();
});

const post = (path: string, body: object) => send(service.url, path, { body });

describe('POST /v1/recipes/run', () => {
  it('runs the issue\'s recipe with $from pointers, and the same with default wiring', async () => {
    const pointed = await post('/v1/recipes/run', {
      input: JWT_LAYERS,
      steps: [
        { operation: 'url-encoder/decode' },
        { operation: 'base64/decode', body: { base64: { $from: '/steps/0/decoded' } } },
        { operation: 'jwt-decoder/decode', body: { token: { $from: '/steps/1/text' } } },
      ],
      keep: 'last',
    });
    assert.equal(pointed.status, 200, pointed.text);
    assert.deepEqual(pointed.json, { result: JWT_ANSWER });
    const wired = await post('/v1/recipes/run', { input: JWT_LAYERS, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });
    assert.deepEqual(wired.json, { result: JWT_ANSWER });
  });

  it('answers every step with keep: all (CSV → JSON → SHA-256, as docs/recipes.md)', async () => {
    const answer = await post('/v1/recipes/run', {
      input: 'name,qty\nbolt,40\nnut,25\n',
      keep: 'all',
      steps: [{ operation: 'data-converter/convert', body: { from: 'csv', to: 'json', indent: 0 } }, { operation: 'hash-generator/hash', body: { algorithms: ['SHA-256'] } }],
    });
    // SHA-256 of the 61 bytes [{"name":"bolt","qty":"40"},{"name":"nut","qty":"25"}] (sha256sum gives the same).
    const hashes = { 'SHA-256': '2972e2f849428fa9d836d73615f6245cf67eeef8922baca334ff433b9ad3b3f9' };
    assert.deepEqual(answer.json, {
      result: { hashes },
      steps: [
        { operation: 'data-converter/convert', answer: { output: '[{"name":"bolt","qty":"40"},{"name":"nut","qty":"25"}]', from: 'csv' } },
        { operation: 'hash-generator/hash', answer: { hashes } },
      ],
    });
  });

  it('checks the whole recipe before anything runs: 400 naming each place, no step run', async () => {
    const queries = resolver.queries.length;
    const answer = await post('/v1/recipes/run', {
      input: 'x',
      steps: [...lookups(1), { operation: 'base64/decod' }, { operation: 'jwt-decoder/decode', body: { token: { $from: '/steps/0/nope' } } }, { operation: 'base64/encode', body: { text: 'a', urlSafe: 'yes' } }],
    });
    assert.equal(answer.status, 400);
    const { error } = answer.json as ErrorBody;
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(error.details, [
      { path: '/steps/1/operation', message: 'is not an operation; did you mean "base64/decode"?' },
      { path: '/steps/2/body/token', message: 'points at /nope, which the answer of step 0 (dns-lookup/lookup) does not have' },
      { path: '/steps/3/body/urlSafe', message: 'must be a boolean' },
    ]);
    assert.equal(resolver.queries.length, queries, 'the first step, valid, did not run either');
    const many = await post('/v1/recipes/run', { input: 'x', steps: Array.from({ length: 33 }, () => ({ operation: 'base64/encode' })) });
    assert.deepEqual((many.json as ErrorBody).error.details, [{ path: '/steps', message: 'must not have more than 32 items' }]);
  });

  it('answers a failing step with its own status and code, details[0] naming it, and runs nothing after it', async () => {
    const queries = resolver.queries.length;
    const answer = await post('/v1/recipes/run', { input: 'not base64!', steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, ...lookups(1)] });
    assert.equal(answer.status, 422);
    const { error } = answer.json as ErrorBody;
    assert.equal(error.code, 'invalid_base64');
    assert.equal(error.details?.[0]?.path, '/steps/1');
    assert.equal(resolver.queries.length, queries, 'the lookup after the failing step never ran');
  });

  it('is an operation of the OpenAPI document, in the reserved group recipes', async () => {
    const document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, { post: { operationId: string; tags: string[] } }> };
    assert.deepEqual(['run', 'identify', 'jwt-in-base64'].map((name) => document.paths[`/v1/recipes/${name}`]?.post.operationId), ['recipes.run', 'recipes.identify', 'recipes.jwt-in-base64']);
    assert.equal((await send(service.url, '/v1/recipes/rn', { body: {} })).status, 404);
    assert.match(((await send(service.url, '/v1/recipes/rn', { body: {} })).json as ErrorBody).error.message, /\/v1\/recipes\/run/);
  });
});

describe('saved recipes (recipes: in the configuration)', () => {
  it('serves each as POST /v1/recipes/<name> taking {"input": …} and answering as its last step', async () => {
    const answer = await post('/v1/recipes/jwt-in-base64', { input: JWT_BASE64 });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, JWT_ANSWER);
    const missing = await post('/v1/recipes/jwt-in-base64', { text: JWT_BASE64 });
    assert.equal(missing.status, 400);
    assert.deepEqual((missing.json as ErrorBody).error.details?.map((detail) => detail.path).sort(), ['/input', '/text']);
    const failing = await post('/v1/recipes/jwt-in-base64', { input: '!!' });
    assert.equal(failing.status, 422);
    assert.equal((failing.json as ErrorBody).error.details?.[0]?.path, '/steps/0');
  });

  it('has its own OpenAPI entry: input typed as its first step\'s main field, answer as its last step\'s', async () => {
    type Post = { summary: string; requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } }; responses: { 200: { content: { 'application/json': { schema: unknown } } } } };
    const { paths } = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, { post: Post }> };
    const saved = paths['/v1/recipes/jwt-in-base64']!.post;
    const request = (path: string) => paths[path]!.post.requestBody.content['application/json'].schema;
    assert.equal(saved.summary, 'Decode a JWT wrapped in Base64');
    assert.deepEqual(request('/v1/recipes/jwt-in-base64').required, ['input']);
    assert.deepEqual(request('/v1/recipes/jwt-in-base64').properties.input, request('/v1/base64/decode').properties.base64);
    assert.deepEqual(saved.responses[200].content['application/json'].schema, paths['/v1/jwt-decoder/decode']!.post.responses[200].content['application/json'].schema);
  });

  it('stops the start when one is broken, naming it and the place', async () => {
    const broken = { recipes: { 'peel-twice': { summary: 'x', steps: [{ operation: 'base64/decod' }] }, fine: SAVED['jwt-in-base64'] } };
    await assert.rejects(buildTestService(broken, { builtinDir: builtinPluginDir }), (error: Error) => {
      assert.equal(error.message, 'Invalid configuration:\n- /recipes/peel-twice/steps/0/operation: is not an operation; did you mean "base64/decode"?');
      return true;
    });
    const shapes = { recipes: { 'Bad Name': SAVED['jwt-in-base64'], nosteps: { summary: 'x', step: [] } } };
    await assert.rejects(buildTestService(shapes, { builtinDir: builtinPluginDir }), (error: Error) => {
      assert.match(error.message, /- \/recipes\/Bad Name: must be kebab-case/);
      assert.match(error.message, /- \/recipes\/nosteps\/step: is not an allowed property; did you mean "steps"\?/);
      return true;
    });
  });

  it('refuses the reserved names run and identify', async () => {
    for (const name of ['run', 'identify']) {
      await assert.rejects(buildTestService({ recipes: { [name]: SAVED['jwt-in-base64'] } }, { builtinDir: builtinPluginDir }), (error: Error) => {
        assert.equal(error.message, `Invalid configuration:\n- /recipes/${name}: "${name}" is reserved (POST /v1/recipes/${name} is served already); choose another name`);
        return true;
      });
    }
  });
});

describe('POST /v1/recipes/identify', () => {
  it('unwraps the issue\'s three layers into one recipe that runs as given', async () => {
    const answer = await post('/v1/recipes/identify', { input: JWT_LAYERS });
    assert.equal(answer.status, 200, answer.text);
    const [best] = (answer.json as { candidates: { kind: string; recipe: { steps: unknown[] }; preview: unknown }[] }).candidates;
    assert.equal(best?.kind, 'percent-encoding');
    assert.deepEqual(best?.recipe, { steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });
    assert.deepEqual(best?.preview, JWT_ANSWER);
    assert.deepEqual((await post('/v1/recipes/run', { input: JWT_LAYERS, ...best!.recipe })).json, { result: JWT_ANSWER });
  });

  it('answers issue 46\'s examples as they should be, and each recipe runs as given', async () => {
    for (const example of ISSUE_46_EXAMPLES) {
      const answer = await post('/v1/recipes/identify', { input: example.input });
      assert.equal(answer.status, 200, `${example.name}: ${answer.text}`);
      const [best] = (answer.json as { candidates: { kind: string; recipe: { steps: unknown[] }; preview: unknown }[] }).candidates;
      assert.deepEqual({ kind: best?.kind, recipe: best?.recipe, preview: best?.preview }, example.best, example.name);
      const ran = await post('/v1/recipes/run', { input: example.input, ...best!.recipe });
      assert.deepEqual((ran.json as { result: unknown }).result, example.best.preview, example.name);
    }
  });

  it('never calls an upstream: no DNS query, no currency feed request, whatever the input looks like', async () => {
    const queries = resolver.queries.length;
    const hits = feed.hits;
    for (const input of ['example.com', 'https://www.example.com/path?q=1', '8.8.8.8', '2001:db8::1', '100 EUR to USD', 'user@example.com', 'EUR']) {
      const answer = await post('/v1/recipes/identify', { input, depth: 5, limit: 20 });
      assert.equal(answer.status, 200, `${input}: ${answer.text}`);
    }
    assert.equal(resolver.queries.length, queries);
    assert.equal(feed.hits, hits);
  });

  it('refuses input outside its schema with 400', async () => {
    const answer = await post('/v1/recipes/identify', { input: 'x', depth: 6 });
    assert.equal(answer.status, 400);
    assert.deepEqual((answer.json as ErrorBody).error.details?.map((detail) => detail.path), ['/depth']);
  });
});
