/**
 * GET / (the list of tools) and GET /tools/<group>/<operation> (one page per operation), built once
 * from the OpenAPI document when the first of them is asked for, plus the pages' one script and one stylesheet. Public like /docs: no
 * key, no rate limit; the requests a page sends are ordinary anonymous API requests. Every other
 * GET under /tools/ is answered here too, with an HTML 404 page (a group switched off says so), so
 * no page address ever reaches the rate limit or the API's JSON 404.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Middleware } from 'koa';
import { catalogOf } from './catalog.js';
import type { Catalog, Tool } from './catalog.js';
import { disabledPage, IDENTIFY_PAGE, listPage, notFoundPage, recipePage, toolPage } from './html.js';
import { nextSteps, RECIPE_PAGE, recipePageData } from './recipe-data.js';

/** Where the pages live. */
const PAGES = '/tools/';

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

/** Every path the pages answer, rendered at once: a fixed map, so no request names anything else. */
export function toolPageAssets(document: Record<string, unknown>): ReadonlyMap<string, Asset> {
  return assetsOf(catalogOf(document));
}

function assetsOf(catalog: Catalog): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>([
    ['/', { type: HTML, body: Buffer.from(listPage(catalog)) }],
    bundledFile('tool-pages.js', 'text/javascript; charset=utf-8'),
    bundledFile('tool-pages.css', 'text/css; charset=utf-8'),
  ]);
  // Without the recipe runner (a kernel served alone) no page offers to send an answer on.
  const recipes = catalog.pages.get(RECIPE_PAGE);
  const identify = catalog.pages.get(IDENTIFY_PAGE)?.path;
  for (const [page, tool] of catalog.pages) {
    const html = tool === recipes ? recipePage(tool, recipePageData(catalog)) : toolPage(tool, recipes ? nextSteps(tool, catalog) : [], identify);
    assets.set(page, { type: HTML, body: Buffer.from(html) });
  }
  return assets;
}

/**
 * The host's search for the operation a mistyped name meant (`group/operation`, among `known`), the
 * one the API's 404 uses; handed in by the composition root, since the pages compile apart from the host.
 */
export type NearestName = (name: string, known: readonly string[]) => string | undefined;

/**
 * The tool a mistyped page address most likely meant, found as the API's 404 finds an operation (a
 * few edits, else the group's first page, else a group named by its first words). That search is
 * bounded (a band of edits around each name, no name compared when the lengths differ by more than
 * that), so an unknown address costs about what a page does.
 */
export function likelyToolFinder(pages: ReadonlyMap<string, Tool>, nearestOperation: NearestName): (path: string) => Tool | undefined {
  // In the catalog's order: a group's first page is its manifest's first operation.
  const byName = new Map([...pages.values()].map((tool) => [`${tool.group}/${tool.name}`, tool]));
  const names = [...byName.keys()];
  return (path) => {
    const name = nearestOperation(path.slice(PAGES.length), names);
    return name === undefined ? undefined : byName.get(name);
  };
}

/** Answers GET/HEAD of the pages and their files, and of every other path under /tools/; `/tools` and `/tools/` go to the list. */
export function toolPages(document: Record<string, unknown>, nearestOperation: NearestName): Middleware {
  // Rendered on the first request for a page, not at start-up: every page's next steps weigh each
  // operation against every other, and a service whose pages nobody opens need not pay for that.
  let pages: { assets: ReadonlyMap<string, Asset>; disabled: ReadonlySet<string>; likelyTool: (path: string) => Tool | undefined } | undefined;
  const rendered = (): NonNullable<typeof pages> => {
    if (pages !== undefined) return pages;
    const catalog = catalogOf(document);
    return (pages = { assets: assetsOf(catalog), disabled: new Set(catalog.disabledGroups), likelyTool: likelyToolFinder(catalog.pages, nearestOperation) });
  };
  return function serveToolPages(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/tools' || ctx.path === '/tools/') {
      ctx.status = 302;
      ctx.res.setHeader('Location', '/');
      return undefined;
    }
    if (ctx.path !== '/' && !ctx.path.startsWith(PAGES)) return next();
    const { assets, disabled, likelyTool } = rendered();
    let asset = assets.get(ctx.path);
    if (asset === undefined) {
      if (!ctx.path.startsWith(PAGES)) return next();
      const group = ctx.path.split('/')[2] ?? '';
      const page = disabled.has(group) ? disabledPage(group) : notFoundPage(ctx.path, likelyTool(ctx.path));
      asset = { type: HTML, body: Buffer.from(page) };
      ctx.status = 404;
    }
    ctx.res.setHeader('Content-Security-Policy', TOOL_PAGES_CSP);
    ctx.res.setHeader('Content-Type', asset.type);
    // The script and stylesheet change only with a new build; the pages are no-store like every answer.
    if (asset.type !== HTML) ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
    ctx.body = asset.body;
    return undefined;
  };
}
