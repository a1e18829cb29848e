/**
 * GET / (the list of tools) and GET /tools/<group>/<operation> (one page per operation), built once
 * from the OpenAPI document, plus the pages' one script and one stylesheet. Public like /docs: no
 * key, no rate limit; the requests a page sends are ordinary anonymous API requests.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Middleware } from 'koa';
import { catalogOf } from './catalog.js';
import { listPage, toolPage } from './html.js';

/** The policy of every page and file: only this service's own script, style and requests; images also from data: URLs (the SVG answers). */
export const TOOL_PAGES_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

const HTML = 'text/html; charset=utf-8';

/** The script and stylesheet `npm run build` bundles next to this file (scripts/bundle-tool-pages.mjs). */
function bundledFile(name: string, type: string): [string, Asset] {
  const file = new URL(`./${name}`, import.meta.url);
  // Without the bundle step the pages still list the tools, and say that the script is missing.
  const body = existsSync(file) ? readFileSync(file) : Buffer.from(type.startsWith('text/css') ? '' : 'document.querySelector(".needs-script")?.append(" Run npm run build.");');
  return [`/tools/${name}`, { type, body }];
}

/** Every path the pages answer, rendered at start-up: a fixed map, so no request names anything else. */
export function toolPageAssets(document: Record<string, unknown>): ReadonlyMap<string, Asset> {
  const catalog = catalogOf(document);
  const assets = new Map<string, Asset>([
    ['/', { type: HTML, body: Buffer.from(listPage(catalog)) }],
    bundledFile('tool-pages.js', 'text/javascript; charset=utf-8'),
    bundledFile('tool-pages.css', 'text/css; charset=utf-8'),
  ]);
  for (const [page, tool] of catalog.pages) assets.set(page, { type: HTML, body: Buffer.from(toolPage(tool)) });
  return assets;
}

/** Answers GET/HEAD of the pages and their files; `/tools` and `/tools/` go to the list. Everything else goes on. */
export function toolPages(document: Record<string, unknown>): Middleware {
  const assets = toolPageAssets(document);
  return function serveToolPages(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/tools' || ctx.path === '/tools/') {
      ctx.status = 302;
      ctx.res.setHeader('Location', '/');
      return undefined;
    }
    const asset = assets.get(ctx.path);
    if (asset === undefined) return next();
    ctx.res.setHeader('Content-Security-Policy', TOOL_PAGES_CSP);
    ctx.res.setHeader('Content-Type', asset.type);
    // The script and stylesheet change only with a new build; the pages are no-store like every answer.
    if (asset.type !== HTML) ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
    ctx.body = asset.body;
    return undefined;
  };
}
