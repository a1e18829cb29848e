// The OpenAPI document states every rule the service enforces (issue 22): bodies generated from each
// operation's document schema (json-schema-faker, fixed seeds) that the document accepts never get
// 400, and one body breaking each rule the document states is refused by the document's schema and
// by the service, with a 400 that names the field. GET and the nesting limit are in the document too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generate } from 'json-schema-faker';
import { startFeed, type FakeFeed } from '../plugins/currency-converter/fake-feed.js';
import { startResolver, type FakeResolver } from '../plugins/dns-lookup/fake-resolver.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

type Body = Record<string, unknown>;
interface Operation {
  operationId: string;
  requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } };
}
interface ApiDocument {
  info: { description: string };
  'x-max-body-depth': number;
  'x-max-body-members': number;
  paths: Record<string, { post: Operation }>;
  components: Record<string, unknown>;
}

let service: InProcessService;
let resolver: FakeResolver;
let feed: FakeFeed;
let document: ApiDocument;
before(async () => {
  // Loopback fakes for the two operations with an upstream: every name is NXDOMAIN, the feed is the fixed test day.
  resolver = await startResolver();
  feed = await startFeed();
  service = await buildTestService(
    {
      rateLimit: { anonymous: { max: 100_000 }, apiKey: { max: 100_000 } },
      dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } },
      currency: { ratesUrl: feed.url },
    },
    { builtinDir: builtinPluginDir },
  );
  document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as ApiDocument;
});
after(async () => {
  await service.stop();
  await resolver.close();
  await feed.close();
});

/** The request schema of `path`, with the document's components beside it so that local $refs resolve. */
function requestSchema(path: string): Record<string, unknown> {
  return { ...document.paths[path]!.post.requestBody.content['application/json'].schema, components: document.components };
}

// Not strict: the schema carries the document's `components` beside it, which is no schema keyword.
const ajv = new Ajv2020({ strict: false, allErrors: true });
const accepts = (path: string, body: unknown): boolean => ajv.validate(requestSchema(path), body);

/**
 * The rules the document can state only in words (JSON Schema has no keyword for them): a body the
 * generator made is mended here where it breaks one. Each is named in the field's description.
 */
const proseRules: Record<string, (body: Body) => void> = {
  // The zones the server's ICU knows differ between Node.js versions; the schema gives the form of a name.
  'timestamp-converter.convert': (body) => {
    if (body.timeZone !== undefined) body.timeZone = 'Europe/Berlin';
  },
  // No variant or extension singleton may repeat: a backreference, which generators cannot use.
  'word-counter.transform': (body) => {
    try {
      if (typeof body.locale === 'string') Intl.getCanonicalLocales(body.locale);
    } catch {
      body.locale = 'de-CH';
    }
  },
  // min ≤ max, their defaults (1 and 100) included.
  'random-generator.numbers': (body) => {
    const [min, max] = [(body.min as number | undefined) ?? 1, (body.max as number | undefined) ?? 100];
    if (min > max) Object.assign(body, { min: max, max: min });
  },
  // Colours follow the CSS colour grammar.
  'qr-code-generator.create': (body) => Object.assign(body, body.dark === undefined ? {} : { dark: 'navy' }, body.light === undefined ? {} : { light: '#fff' }),
  'qr-code-generator.text': (body) => Object.assign(body, body.dark === undefined ? {} : { dark: 'navy' }, body.light === undefined ? {} : { light: '#fff' }),
  // Codes that differ only in letter case are the same currency.
  'currency-converter.convert': (body) => {
    if (Array.isArray(body.to)) body.to = [...new Set(body.to.map((code: string) => code.toUpperCase()))];
  },
};

const SEEDS = [1, 2, 3, 4];

describe('bodies generated from the document', () => {
  it('never get 400 when the document accepts them (json-schema-faker, fixed seeds)', async () => {
    const refused: string[] = [];
    let sent = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      const id = item.post.operationId;
      // A recipe's steps name operations and carry their bodies: checked against the schemas of the
      // operations named, which no schema of its own can state (recipes/check.test.ts holds those checks).
      if (id === 'recipes.run') continue;
      for (const seed of SEEDS) {
        const body = (await generate(requestSchema(path), { seed, maxDefaultItems: 3 })) as Body;
        proseRules[id]?.(body);
        // json-schema-faker 0.6.3 does not apply if/then and may miss an anyOf rule; the document decides.
        if (!accepts(path, body)) continue;
        const answer = await send(service.url, path, { body });
        sent++;
        if (answer.status === 400 || answer.status >= 500) refused.push(`${id} ${JSON.stringify(body).slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    assert.deepEqual(refused, []);
    // Most operations' bodies come out valid; the count guards against a generator that makes none.
    assert.ok(sent >= Object.keys(document.paths).length * 2, `only ${sent} generated bodies were valid`);
  });
});

/** One body breaking each rule the document now states, and the field the 400 must name. */
const brokenRules: [path: string, body: Body, field: string][] = [
  ['/v1/cron-expression/explain', { expression: '* * * * *', from: '2023-02-29T00:00:00Z' }, '/from'],
  ['/v1/cron-expression/explain', { expression: '* * * * *', from: '2024-01-01T24:00:00Z' }, '/from'],
  ['/v1/date-calculator/difference', { start: '2023-02-29', end: '2024-01-01' }, '/start'],
  ['/v1/date-calculator/difference', { start: '2024-01-01', end: '1900-02-29' }, '/end'],
  ['/v1/date-calculator/add', { date: '0000-01-01', amount: 1, unit: 'days' }, '/date'],
  ['/v1/dns-lookup/lookup', { name: 'example.com', types: ['A', 'MX', 'A'] }, '/types/2'],
  ['/v1/currency-converter/convert', { from: 'USD', to: ['EUR', 'EUR'] }, '/to/1'],
  ['/v1/hash-generator/hash', {}, '/text'],
  ['/v1/hash-generator/hash', { text: 'a', dataBase64: 'YQ==' }, '/dataBase64'],
  ['/v1/lorem-ipsum/generate', { count: 201 }, '/count'],
  ['/v1/lorem-ipsum/generate', { unit: 'sentences', count: 201 }, '/count'],
  ['/v1/password-generator/password', { lowercase: false, uppercase: false, digits: false, symbols: false }, '/digits'],
  ['/v1/unit-converter/convert', { value: 1, category: 'length', from: 'kg' }, '/from'],
  ['/v1/unit-converter/convert', { value: 1, category: 'mass', from: 'KG', to: 'km' }, '/to'],
  ['/v1/timestamp-converter/convert', { input: 0, timeZone: '+01:00' }, '/timeZone'],
  ['/v1/word-counter/transform', { text: 'i', transform: 'upper', locale: '' }, '/locale'],
  ['/v1/word-counter/transform', { text: 'i', transform: 'upper', locale: 'en_US' }, '/locale'],
  ['/v1/qr-code-generator/create', { content: { type: 'wifi', ssid: 'Cafe', security: 'nopass', password: 'x' } }, '/content/password'],
  ['/v1/qr-code-generator/create', { content: { type: 'contact', title: 'Boss' } }, '/content/lastName'],
  ['/v1/qr-code-generator/create', { content: { type: 'email', to: ' \t ' } }, '/content/to'],
];

describe('each rule the document states', () => {
  for (const [path, body, field] of brokenRules) {
    it(`${path} ${JSON.stringify(body)}: refused by the document and 400 on ${field}`, async () => {
      assert.equal(accepts(path, body), false, 'the document states the rule');
      const answer = await send(service.url, path, { body });
      assert.equal(answer.status, 400, answer.text);
      const details = (answer.json as { error: { details: { path: string }[] } }).error.details;
      assert.ok(details.some((detail) => detail.path === field), `${field} in ${JSON.stringify(details)}`);
    });
  }

  it('accepts bodies that keep the rules (case-insensitive unit ids, 200 sentences, one input, an open network)', async () => {
    const kept: [string, Body][] = [
      ['/v1/unit-converter/convert', { value: 1, category: 'mass', from: 'KG', to: 'Lb' }],
      ['/v1/lorem-ipsum/generate', { unit: 'sentences', count: 200 }],
      ['/v1/lorem-ipsum/generate', { unit: 'words', count: 201 }],
      ['/v1/hash-generator/hash', { dataBase64: 'YQ==' }],
      ['/v1/date-calculator/difference', { start: '2000-02-29', end: '0004-02-29' }],
      ['/v1/cron-expression/explain', { expression: '@daily', from: '2024-02-29T23:59:59.5-23:59' }],
      ['/v1/word-counter/transform', { text: 'i', transform: 'upper', locale: 'tr-u-co-trad-x-private' }],
      ['/v1/qr-code-generator/create', { content: { type: 'wifi', ssid: 'Cafe', security: 'nopass' } }],
      ['/v1/qr-code-generator/create', { content: { type: 'contact', website: 'https://example.com' } }],
    ];
    for (const [path, body] of kept) {
      assert.equal(accepts(path, body), true, `${path} ${JSON.stringify(body)}`);
      assert.equal((await send(service.url, path, { body })).status, 200, `${path} ${JSON.stringify(body)}`);
    }
  });
});

describe('what the document says beyond the bodies', () => {
  it('states the 405 once, with the error model, and lists only POST per path; the service answers GET 405 with Allow: POST', async () => {
    assert.match(document.info.description, /any other method on its path answers 405 `method_not_allowed` with `Allow: POST`/);
    const refusal = (document as unknown as { components: { responses: Record<string, { headers?: { Allow?: unknown }; content: Record<string, { schema: { $ref: string } }> }> } }).components.responses['405'];
    assert.ok(refusal?.headers?.Allow, 'the 405 response names its Allow header');
    assert.equal(refusal.content['application/json']?.schema.$ref, '#/components/schemas/Error');
    for (const [path, item] of Object.entries(document.paths)) {
      assert.deepEqual(Object.keys(item), ['post'], `${path}: POST only, no block that always fails`);
      const answer = await send(service.url, path, { method: 'GET' });
      assert.equal(answer.status, 405, path);
      assert.equal(answer.headers.allow, 'POST');
      assert.equal((answer.json as { error: { code: string } }).error.code, 'method_not_allowed');
    }
  });

  it('states the nesting limit, and the service holds exactly that limit', async () => {
    const depth = document['x-max-body-depth'];
    assert.equal(depth, 64);
    assert.match(document.info.description, new RegExp(`at most ${depth} levels`));
    // The body object is level 1; `{"x":[[…]]}` with depth − 1 arrays nests `depth` levels.
    const nested = (levels: number): string => `{"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const atLimit = await send(service.url, '/v1/base64/encode', { body: nested(depth), headers: { 'Content-Type': 'application/json' } });
    assert.equal((atLimit.json as { error: { code: string } }).error.code, 'validation_failed', 'parsed, then refused by the schema');
    const beyond = await send(service.url, '/v1/base64/encode', { body: nested(depth + 1), headers: { 'Content-Type': 'application/json' } });
    assert.equal(beyond.status, 400);
    assert.equal((beyond.json as { error: { code: string } }).error.code, 'invalid_json');
  });

  it('states the object member bound, and the service holds exactly that bound', async () => {
    const members = document['x-max-body-members'];
    assert.equal(members, 100_000);
    assert.match(document.info.description, new RegExp(`at most ${members} object members`));
    // `{"x":0,"k0":0,…}` with `count` members in all.
    const body = (count: number): string => `{"x":0${Array.from({ length: count - 1 }, (_, index) => `,"k${index}":0`).join('')}}`;
    const atLimit = await send(service.url, '/v1/base64/encode', { body: body(members), headers: { 'Content-Type': 'application/json' } });
    assert.equal((atLimit.json as { error: { code: string } }).error.code, 'validation_failed', 'parsed, then refused by the schema');
    const beyond = await send(service.url, '/v1/base64/encode', { body: body(members + 1), headers: { 'Content-Type': 'application/json' } });
    assert.equal(beyond.status, 400);
    assert.equal((beyond.json as { error: { code: string } }).error.code, 'invalid_json');
  });
});
