// The contract over every built-in plugin, without a line per plugin: each example replayed over
// HTTP, the OpenAPI document validated, every schema compiled by a strict JSON Schema compiler, and
// every declared error code documented.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
let document: { paths: Record<string, { post: Record<string, unknown> }> } & Record<string, unknown>;
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
  document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as typeof document;
});
after(() => service.stop());

describe('every built-in operation', () => {
  it('answers each of its examples over HTTP exactly as the manifest says', async () => {
    let replayed = 0;
    for (const { path, operation } of service.registry.operations.values()) {
      // Upstream operations need their upstream; their plugin's tests replay the examples against a local fake.
      if (operation.definition.upstream === true) continue;
      for (const example of operation.definition.examples) {
        const answer = await send(service.url, path, { body: example.body });
        assert.equal(answer.status, 200, `${operation.id} ${example.title ?? ''}: ${answer.text.slice(0, 300)}`);
        if (example.exact !== false) assert.deepEqual(answer.json, JSON.parse(JSON.stringify(example.response)), `${operation.id} ${example.title ?? ''}`);
        else assert.deepEqual(operation.responseProblems(example.response), [], `${operation.id}: the sample response fits the schema`);
        assert.deepEqual(operation.responseProblems(answer.json), [], `${operation.id} response schema`);
        replayed++;
      }
    }
    assert.ok(replayed > 0);
  });

  it('lives at /v1/<group>/<operation> with the operation id <group>.<operation>', () => {
    for (const [path, entry] of service.registry.operations) {
      assert.equal(path, `/v1/${entry.operation.group}/${entry.operation.name}`);
      assert.equal(document.paths[path]?.post.operationId, `${entry.operation.group}.${entry.operation.name}`);
    }
    // Besides the plugins' operations, the composition root's: recipes/run and recipes/identify.
    assert.equal(Object.keys(document.paths).length, service.registry.operations.size + 2);
  });

  it('has every declared 422 code listed in docs/errors.md', async () => {
    const errors = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const plugin of service.registry.plugins) {
      for (const code of Object.keys(plugin.errors ?? {})) assert.match(errors, new RegExp(`\`${code}\``), `${plugin.group}: ${code}`);
    }
  });
});

/**
 * Every operation of utility-tools-api.md (section "Endpoints"), copied by hand from its tables:
 * 30 groups, 58 operations. The service must mount exactly these, no more and no fewer.
 */
const SPEC_OPERATIONS = {
  'base64': ['encode', 'decode'],
  'bmi-calculator': ['calculate'],
  'color-converter': ['convert', 'contrast'],
  'compound-interest': ['simulate'],
  'cron-expression': ['explain'],
  'currency-converter': ['convert', 'rates'],
  'data-converter': ['convert'],
  'date-calculator': ['difference', 'add'],
  'dns-lookup': ['lookup'],
  'exif-viewer': ['read', 'strip'],
  'hash-generator': ['hash'],
  'json-formatter': ['format', 'minify', 'validate'],
  'jwt-decoder': ['decode', 'verify'],
  'lorem-ipsum': ['generate'],
  'number-base-converter': ['convert', 'roman'],
  'password-generator': ['password', 'passphrase'],
  'percent-calculator': ['of', 'ratio', 'base', 'change', 'apply', 'vat'],
  'qr-code-generator': ['create', 'text'],
  'random-generator': ['numbers', 'dice', 'coins', 'pick', 'shuffle', 'teams'],
  'regex-tester': ['test'],
  'slug-generator': ['slugify'],
  'sql-formatter': ['format', 'minify'],
  'subnet-calculator': ['calculate'],
  'text-converter': ['encode', 'decode'],
  'text-diff': ['lines', 'inline'],
  'timestamp-converter': ['convert'],
  'unit-converter': ['convert'],
  'url-encoder': ['encode', 'decode', 'parse'],
  'uuid-generator': ['generate', 'decode'],
  'word-counter': ['stats', 'transform'],
} as const;

describe('the contract\'s list of operations', () => {
  it('is mounted exactly: all 58 operations of the 30 groups, nothing else', () => {
    const expected = Object.entries(SPEC_OPERATIONS).flatMap(([group, names]) => names.map((name) => `/v1/${group}/${name}`));
    assert.equal(Object.keys(SPEC_OPERATIONS).length, 30);
    assert.equal(expected.length, 58);
    assert.deepEqual([...service.registry.operations.keys()].sort(), expected.sort());
  });
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await validate(JSON.parse(JSON.stringify(document)));
    assert.equal(result.valid, true, JSON.stringify(result.valid ? [] : result.errors.slice(0, 5)));
  });

  it('has schemas that a strict JSON Schema 2020-12 compiler accepts', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    let compiled = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.post as {
        requestBody: { content: { 'application/json': { schema: object; examples: Record<string, { value: unknown }> } } };
        responses: { '200': { content: { 'application/json': { schema: object; example?: unknown } } } };
      };
      const request = ajv.compile(operation.requestBody.content['application/json'].schema);
      for (const [name, example] of Object.entries(operation.requestBody.content['application/json'].examples)) {
        assert.equal(request(example.value), true, `${path} ${name}: ${JSON.stringify(request.errors)}`);
      }
      const response = ajv.compile(operation.responses['200'].content['application/json'].schema);
      assert.equal(response(operation.responses['200'].content['application/json'].example), true, `${path} response: ${JSON.stringify(response.errors)}`);
      compiled += 2;
    }
    assert.ok(compiled > 0);
  });

  it('lists under each operation only the 422 codes that operation declares', () => {
    const plugins = new Map(service.registry.plugins.map((plugin) => [plugin.group, plugin]));
    const described = (path: string): string => {
      const unprocessable = document.paths[path].post.responses as Record<string, { description?: string; $ref?: string }>;
      // The sentence on the kernel's own 422 codes follows the operation's list; it is not part of it.
      return (unprocessable['422'].description ?? unprocessable['422'].$ref ?? '').split(' Any operation may also')[0];
    };
    // By hand from plugins/base64/codec.ts: encoding cannot fail, decoding has two ways to.
    assert.equal(described('/v1/base64/encode'), '#/components/responses/422');
    assert.match(described('/v1/base64/decode'), /^Valid parameters, but the tool cannot process the input: `invalid_base64` \(.+\); `invalid_utf8` \(.+\)\.$/);
    for (const [path, { operation }] of service.registry.operations) {
      const codes = Object.keys(plugins.get(operation.group)?.errors ?? {});
      const own = operation.definition.errors ?? codes;
      for (const code of codes) assert.equal(described(path).includes(`\`${code}\``), own.includes(code), `${path} ${code}`);
    }
  });

  it('has an errors list on every operation of a built-in plugin that has codes and several operations', () => {
    for (const plugin of service.registry.plugins) {
      const names = Object.keys(plugin.operations);
      if (names.length < 2 || Object.keys(plugin.errors ?? {}).length === 0) continue;
      for (const name of names) assert.ok(plugin.operations[name].errors !== undefined, `${plugin.group}.${name} lists the codes it may throw`);
    }
  });

  it('declares the optional bearer auth and the shared error responses', () => {
    const components = document.components as { securitySchemes: Record<string, unknown>; responses: Record<string, unknown> };
    assert.deepEqual(components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'Optional API key (tsk_…); raises the rate limit' });
    for (const status of ['400', '401', '404', '413', '422', '429']) assert.ok(components.responses[status], status);
  });
});
