// GET /docs over real HTTP: the page and its fixed list of files, the policy on each, the redirect
// from /docs/ (and from / when the tool pages are off), the switch. The page in a real browser is test/browser/docs-page.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { DOCS_CSP, docsAssets } from '../kernel/http/docs-page.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
let disabled: InProcessService;
before(async () => {
  // The anonymous limit of 1 shows the page is outside the rate limit: many loads, no 429.
  service = await buildTestService({ rateLimit: { anonymous: { max: 1 } } });
  disabled = await buildTestService({ docs: { enabled: false } });
});
after(async () => {
  await service.stop();
  await disabled.stop();
});

const bundle = readFileSync(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'));

describe('GET /docs', () => {
  it('serves the page under the strict policy, loading only files of this service', async () => {
    const page = await send(service.url, '/docs', { method: 'GET' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['content-security-policy'], DOCS_CSP);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    const loaded = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    assert.deepEqual(loaded, ['/docs/swagger-ui.css', '/docs/favicon-32x32.png', '/docs/swagger-ui-bundle.js', '/docs/init.js']);
    assert.doesNotMatch(page.text, /<script>|<style>|style="/, 'no inline script or style');
  });

  it('serves each file with its type, the bundle byte for byte from swagger-ui-dist', async () => {
    const types: Record<string, string> = {
      '/docs/swagger-ui.css': 'text/css; charset=utf-8',
      '/docs/swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      '/docs/init.js': 'text/javascript; charset=utf-8',
      '/docs/favicon-32x32.png': 'image/png',
    };
    for (const [path, type] of Object.entries(types)) {
      const answer = await send(service.url, path, { method: 'GET' });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['content-type'], type, path);
    }
    const served = await send(service.url, '/docs/swagger-ui-bundle.js', { method: 'GET' });
    assert.equal(Buffer.byteLength(served.text), bundle.length);
  });

  it('configures swagger-ui with this service\'s document, no validator and no key fields', async () => {
    const init = (await send(service.url, '/docs/init.js', { method: 'GET' })).text;
    assert.match(init, /url: '\/v1\/openapi\.json'/);
    assert.match(init, /validatorUrl: null/);
    assert.match(init, /authorizeBtn: \(\) => \(\) => null/);
  });

  it('redirects /docs/ to /docs, and / too when the tool pages are off', async () => {
    const answer = await send(service.url, '/docs/', { method: 'GET' });
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.location, '/docs');
    // With the tool pages on, / is their list (test/tool-pages.test.ts).
    const noToolPages = await buildTestService({ docs: { toolPages: false } });
    try {
      const root = await send(noToolPages.url, '/', { method: 'GET' });
      assert.equal(root.status, 302);
      assert.equal(root.headers.location, '/docs');
    } finally {
      await noToolPages.stop();
    }
  });

  it('serves no other file, whatever the path says', async () => {
    for (const path of ['/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/index.html', '/docs/swagger-ui-bundle.js.map', '/docs/oauth2-redirect.html', '/docs/swagger-initializer.js']) {
      const answer = await send(service.url, path, { method: 'GET' });
      assert.notEqual(answer.status, 200, path);
      assert.ok([404, 429].includes(answer.status), `${path}: ${answer.status}`);
    }
  });

  it('is an unknown path when docs.enabled is false', async () => {
    for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/']) {
      const answer = await send(disabled.url, path, { method: 'GET' });
      assert.equal(answer.status, 404, path);
    }
  });

  it('reads swagger-ui’s files when first asked for, and keeps them', () => {
    // A folder standing in for swagger-ui-dist: what the file holds when first asked for is served, then kept.
    const folder = mkdtempSync(join(tmpdir(), 'docs-assets-'));
    try {
      const assets = docsAssets(folder);
      writeFileSync(join(folder, 'swagger-ui-bundle.js'), 'first');
      const bundleAsset = assets.get('/docs/swagger-ui-bundle.js');
      assert.equal(bundleAsset?.body().toString(), 'first', 'not read when the map was built (the file did not exist then)');
      writeFileSync(join(folder, 'swagger-ui-bundle.js'), 'second');
      assert.equal(bundleAsset.body().toString(), 'first', 'kept after the first read');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
