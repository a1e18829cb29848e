// The tool pages over real HTTP: GET / lists every operation, /tools/<group>/<operation> is each
// one's page carrying its schemas and examples, the script and stylesheet are fixed files, all under
// the strict policy, public and outside the rate limit; docs.toolPages and docs.enabled switch them
// off. The pages in a real browser are test/browser/tool-pages.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir, nearestOperation } from '../kernel/host/index.js';
import { escapeHtml, scriptJson } from '../tool-pages/html.js';
import { buildOpenApiDocument } from '../kernel/http/openapi.js';
import { catalogOf } from '../tool-pages/catalog.js';
import { likelyToolFinder, TOOL_PAGES_CSP, toolPages } from '../tool-pages/serve.js';
import { countMinCalls } from './support/work.js';
import { send } from './support/http.js';
import { externalPlugins, buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  // The anonymous limit of 1 shows the pages are outside the rate limit: many loads, no 429.
  service = await buildTestService({ rateLimit: { anonymous: { max: 1 } }, plugins: { dirs: [externalPlugins] } }, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

const dataBlock = (html: string): unknown => JSON.parse(/<script type="application\/json" id="tool-data">([^<]*)<\/script>/.exec(html)![1]!);

describe('GET /', () => {
  it('lists every operation, built-in and from a folder, linking its page, under the strict policy', async () => {
    const page = await send(service.url, '/', { method: 'GET' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['content-security-policy'], TOOL_PAGES_CSP);
    assert.equal(page.headers['cache-control'], 'no-store');
    const links = [...page.text.matchAll(/<a href="(\/tools\/[^"]+)"/g)].map((match) => match[1]);
    // Every operation the executor serves: the plugins' and the composition root's recipes.
    const expected = service.host.executor.operations().map((operation) => `/tools/${operation.group}/${operation.operation}`);
    assert.ok(expected.includes('/tools/recipes/run') && expected.includes('/tools/recipes/identify'), 'recipes have pages');
    assert.ok(expected.includes('/tools/greeting/hello') && expected.includes('/tools/qr-code-generator/create'), 'built-in and folder plugins are mounted');
    assert.deepEqual(links.sort(), expected.sort());
    assert.match(page.text, /<a href="\/docs">API reference<\/a>/);
    // The search's index is a data block (never executed; script-src 'self' holds): the rest of the page has no script or style of its own.
    const index = /<script type="application\/json" id="search-index">([^<]*)<\/script>/.exec(page.text);
    assert.ok(index, 'the search index');
    assert.equal((JSON.parse(index[1]!) as unknown[]).length, expected.length, 'an entry per operation');
    assert.doesNotMatch(page.text.replace(index[0], ''), /<script>|<script type=|<style|style="|https?:\/\//, 'no inline script or style, nothing from elsewhere');
    const loaded = [...page.text.matchAll(/(?:src|href)="(\/tools\/tool-pages\.[a-z]+)"/g)].map((match) => match[1]);
    assert.deepEqual(loaded, ['/tools/tool-pages.css', '/tools/tool-pages.js']);
  });
});

describe('GET /tools/<group>/<operation>', () => {
  it('serves every operation\'s page, with its path, body schema and examples as data, and a link to the reference', async () => {
    for (const { path, operation } of service.registry.operations.values()) {
      const page = await send(service.url, `/tools/${operation.group}/${operation.name}`, { method: 'GET' });
      assert.equal(page.status, 200, path);
      assert.equal(page.headers['content-security-policy'], TOOL_PAGES_CSP, path);
      const data = dataBlock(page.text) as { path: string; body: unknown; examples: { body: unknown }[] };
      assert.equal(data.path, path);
      assert.deepEqual(data.body, JSON.parse(JSON.stringify(operation.requestSchema)), path);
      assert.deepEqual(data.examples.map((example) => example.body), operation.definition.examples.map((example) => example.body), path);
      assert.ok(page.text.includes(`<a href="/docs#/${operation.group}/${encodeURIComponent(operation.id)}">`), path);
      assert.ok(page.text.includes(escapeHtml(operation.definition.summary)), path);
    }
  });

  it('gives each page its manifest\'s main fields (x-io) and the next steps its answer fits; /tools/recipes/run is the recipe page; / has the identify box', async () => {
    const decode = dataBlock((await send(service.url, '/tools/base64/decode', { method: 'GET' })).text) as { name: string; io: unknown; next: { name: string }[] };
    assert.equal(decode.name, 'base64/decode');
    assert.deepEqual(decode.io, { input: 'base64', output: 'text' });
    const next = decode.next.map((step) => step.name);
    assert.ok(next.includes('jwt-decoder/decode') && next.includes('hash-generator/hash'), next.join());
    assert.ok(!next.some((name) => name.startsWith('recipes/')), 'a composite is never a step');
    // jwt-decoder/decode hands on its payload, an object: no main input of a built-in takes one.
    const jwtPage = dataBlock((await send(service.url, '/tools/jwt-decoder/decode', { method: 'GET' })).text) as { next: unknown[] };
    assert.ok(Array.isArray(jwtPage.next));
    const recipe = await send(service.url, '/tools/recipes/run', { method: 'GET' });
    assert.equal(recipe.headers['content-security-policy'], TOOL_PAGES_CSP);
    const data = JSON.parse(/<script type="application\/json" id="recipe-data">([^<]*)<\/script>/.exec(recipe.text)![1]!) as { path: string; operations: { name: string }[] };
    assert.equal(data.path, '/v1/recipes/run');
    assert.ok(data.operations.some((operation) => operation.name === 'jwt-decoder/decode'));
    assert.doesNotMatch(recipe.text, /id="tool-data"/, 'not the generic form');
    const list = (await send(service.url, '/', { method: 'GET' })).text;
    assert.match(list, /<form id="identify"[^>]* data-path="\/v1\/recipes\/identify"/);
  });

  it('keeps text from a manifest inert: escaped in HTML, unable to close the data block', () => {
    assert.equal(escapeHtml(`<img src=x onerror="a('b')">&`), '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;');
    const json = scriptJson({ summary: '</script><script>alert(1)</script>', line: '\u2028' });
    assert.doesNotMatch(json, /<|\u2028/);
    assert.deepEqual(JSON.parse(json), { summary: '</script><script>alert(1)</script>', line: '\u2028' });
  });

  it('serves the one script and stylesheet with their types, cached for an hour', async () => {
    for (const [path, type] of [['/tools/tool-pages.js', 'text/javascript; charset=utf-8'], ['/tools/tool-pages.css', 'text/css; charset=utf-8']] as const) {
      const answer = await send(service.url, path, { method: 'GET' });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['content-type'], type);
      assert.equal(answer.headers['cache-control'], 'public, max-age=3600');
      assert.ok(answer.text.length > 1000, `${path} is the bundle (npm run build), ${answer.text.length} bytes`);
      // No framework: the whole script, recipes and identify included, stays under 100 KB.
      if (path.endsWith('.js')) assert.ok(Buffer.byteLength(answer.text) <= 100_000, `${Buffer.byteLength(answer.text)} bytes of script`);
    }
    const head = await send(service.url, '/tools/qr-code-generator/create', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  it('sends /tools to the list; answers every other page address with an HTML 404 outside the rate limit, naming the likely tool', async () => {
    for (const path of ['/tools', '/tools/']) {
      const answer = await send(service.url, path, { method: 'GET' });
      assert.equal(answer.status, 302, path);
      assert.equal(answer.headers.location, '/');
    }
    // Spend the anonymous budget (1 here): the page addresses still answer 404 pages, never 429.
    await send(service.url, '/v1/base64/encode', { method: 'POST', body: { text: 'a' } });
    assert.equal((await send(service.url, '/v1/base64/encode', { method: 'POST', body: { text: 'a' } })).status, 429, 'the budget is spent');
    for (const path of ['/tools/qr-code-generator/nope', '/tools/qr-code-generator/create/x', '/tools/tool-pages.js.map', '/tools/qr-code-generatr/create']) {
      const answer = await send(service.url, path, { method: 'GET' });
      assert.equal(answer.status, 404, path);
      assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8', path);
      assert.equal(answer.headers['content-security-policy'], TOOL_PAGES_CSP, path);
      assert.match(answer.text, /<h1>No tool at this address<\/h1>/, path);
    }
    const typo = await send(service.url, '/tools/qr-code-generatr/create', { method: 'GET' });
    assert.match(typo.text, /Did you mean <a href="\/tools\/qr-code-generator\/create">QR code generator: create<\/a>\?/);
    // Other methods go on to the API's own answers (here the spent budget's 429).
    const post = await send(service.url, '/tools/qr-code-generator/create', { method: 'POST', body: {} });
    assert.ok([404, 429].includes(post.status), `POST: ${post.status}`);
  });
});

describe('rendering', () => {
  it('renders the pages on the first request for one, not when the service starts or answers another path', async () => {
    const document = buildOpenApiDocument(service.host.executor.operations(), '1.0.0', []);
    let reads = 0;
    const watched = new Proxy(document, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const pages = toolPages(watched, nearestOperation);
    const context = (path: string) => ({ method: 'GET', path, status: 404, body: undefined as unknown, res: { setHeader: () => undefined } });
    let passedOn = 0;
    await pages(context('/healthz') as never, async () => void passedOn++);
    assert.equal(reads, 0, 'nothing rendered for another path');
    assert.equal(passedOn, 1);
    const list = context('/');
    await pages(list as never, async () => void passedOn++);
    assert.ok(reads > 0, 'rendered for the first page');
    assert.match(String(list.body), /<html/);
    const afterFirst = reads;
    await pages(context('/tools/base64/encode') as never, async () => void passedOn++);
    assert.equal(reads, afterFirst, 'rendered once');
  });
});

describe('an unknown page address', () => {
  it('costs a bounded search for the likely tool: a band of edits around names of about its length (issue 47)', () => {
    const document = buildOpenApiDocument(service.host.executor.operations(), '1.0.0');
    const pages = catalogOf(document).pages;
    const likelyTool = likelyToolFinder(pages, nearestOperation);
    const longest = Math.max(...[...pages.keys()].map((page) => page.length));
    // The cells one unknown address may cost: every page compared in full, 7 cells (a band of 3
    // edits either side) a character, with a row's bounds on top. The search once filled the
    // whole table against every page, for addresses up to 120 characters: about 60 × 113 × 30 cells.
    const bound = pages.size * (longest + 3) * (7 + 1);
    const near = '/tools/subnet-calculator/calculat';
    const hostile = [
      `/tools/${'hash-generator/hasx'.repeat(6)}`.slice(0, 127),
      `/tools/${'a'.repeat(113)}`,
      `/tools/${'a'.repeat(5000)}`,
      near,
      '/tools/qwertyuiopasdfghjklzxcvbnm/qwertyuio',
      '/tools/hash-generater/hash',
    ];
    const costs = hostile.map((path) => countMinCalls(() => likelyTool(path)));
    for (const [index, cells] of costs.entries()) assert.ok(cells <= bound, `${hostile[index]!.slice(0, 40)}…: ${cells} cells, bound ${bound}`);
    // The counter sees the search: a near miss is compared, and named.
    assert.ok(costs[3]! > 0);
    assert.equal(likelyTool(near)?.page, '/tools/subnet-calculator/calculate');
    // Longer than any page by more than the edits allowed: nothing is compared at all.
    assert.equal(costs[1], 0);
    assert.equal(costs[2], 0);
  });
});

describe('switches', () => {
  it('docs.toolPages: false leaves /docs and sends / there; docs.enabled: false turns every page off', async () => {
    const reference = await buildTestService({ docs: { toolPages: false } });
    const apiOnly = await buildTestService({ docs: { enabled: false } });
    try {
      assert.equal((await send(reference.url, '/tools/greeting/hello', { method: 'GET' })).status, 404);
      assert.equal((await send(reference.url, '/tools/tool-pages.js', { method: 'GET' })).status, 404);
      assert.equal((await send(reference.url, '/docs', { method: 'GET' })).status, 200);
      for (const path of ['/', '/tools/greeting/hello', '/tools/tool-pages.js', '/docs']) assert.equal((await send(apiOnly.url, path, { method: 'GET' })).status, 404, path);
    } finally {
      await reference.stop();
      await apiOnly.stop();
    }
  });

  it('a page of a group the operator switched off says so, in HTML', async () => {
    const withoutDns = await buildTestService({ plugins: { disabled: ['dns-lookup'] } }, { builtinDir: builtinPluginDir });
    try {
      const answer = await send(withoutDns.url, '/tools/dns-lookup/lookup', { method: 'GET' });
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(answer.text, /<h1>This tool is switched off<\/h1>/);
      assert.match(answer.text, /<code>dns-lookup<\/code> tools exist but are switched off on this server/);
      const list = await send(withoutDns.url, '/', { method: 'GET' });
      assert.doesNotMatch(list.text, /\/tools\/dns-lookup\//);
    } finally {
      await withoutDns.stop();
    }
  });
});
