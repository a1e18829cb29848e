/**
 * GET /docs: the interactive API reference (swagger-ui, from the swagger-ui-dist package's own files,
 * each read when it is first asked for and kept), and GET / → /docs when the tool pages (tool-pages/) are off. Everything the page loads comes from this service:
 * no CDN, no validator call (`validatorUrl: null`), no inline script, so a strict
 * Content-Security-Policy holds. The page offers no field for an API key (keys stay off browser
 * code, as the contract asks): the authorize buttons are removed by a swagger-ui plugin, and
 * try-it requests go out anonymous. Public like /healthz: no key, no rate limit.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { KernelMiddleware } from './types.js';

/** The policy of every /docs answer. swagger-ui sets styles through the DOM (allowed), never inline markup. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Toolshed API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// Our own initializer, served as a file (a CSP without 'unsafe-inline' forbids inline scripts).
const init = `// Toolshed: swagger-ui over this service's own OpenAPI document, without any API key field.
const noKeyFields = () => ({ wrapComponents: { authorizeBtn: () => () => null, authorizeOperationBtn: () => () => null } });
window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [noKeyFields],
});
`;

interface Asset {
  readonly type: string;
  /** The file's bytes; swagger-ui's own are read on the first request (1.9 MB an idle service need not hold). */
  readonly body: () => Buffer;
}

function readOnce(file: string): () => Buffer {
  let body: Buffer | undefined;
  return () => (body ??= readFileSync(file));
}

/** The page's files, by path: a fixed list, so no request can name any other file. */
export function docsAssets(folder = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))): ReadonlyMap<string, Asset> {
  const file = (name: string): (() => Buffer) => readOnce(path.join(folder, name));
  const text = (content: string): (() => Buffer) => {
    const body = Buffer.from(content);
    return () => body;
  };
  return new Map<string, Asset>([
    ['/docs', { type: 'text/html; charset=utf-8', body: text(page) }],
    ['/docs/init.js', { type: 'text/javascript; charset=utf-8', body: text(init) }],
    ['/docs/swagger-ui.css', { type: 'text/css; charset=utf-8', body: file('swagger-ui.css') }],
    ['/docs/swagger-ui-bundle.js', { type: 'text/javascript; charset=utf-8', body: file('swagger-ui-bundle.js') }],
    ['/docs/favicon-32x32.png', { type: 'image/png', body: file('favicon-32x32.png') }],
  ]);
}

/** Answers GET/HEAD of the page's files and redirects `/` to it (the tool pages answer `/` first when on); everything else goes on. */
export function docsPage(assets: ReadonlyMap<string, Asset> = docsAssets()): KernelMiddleware {
  return function serveDocs(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/' || ctx.path === '/docs/') {
      ctx.status = 302;
      ctx.res.setHeader('Location', '/docs');
      return undefined;
    }
    const asset = assets.get(ctx.path);
    if (asset === undefined) return next();
    ctx.res.setHeader('Content-Security-Policy', DOCS_CSP);
    ctx.res.setHeader('Content-Type', asset.type);
    // The files change only with the package: let the browser keep them for an hour.
    if (ctx.path !== '/docs') ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
    ctx.body = asset.body();
    return undefined;
  };
}
