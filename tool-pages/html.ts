/**
 * The pages' HTML, rendered on the server: the list of tools (usable without the script; the
 * script adds the search) and the frame of each tool page, whose form the script builds from the
 * operation's data, carried in a JSON data block (not executed, so the policy's `script-src 'self'`
 * holds).
 */
import type { Catalog, Tool } from './catalog.js';
import { linkTargets, RECIPE_PAGE, type RecipePageData, type StepChoice } from './recipe-data.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => escapes[character]!);

/** Backticks in manifest text are code spans; everything else is text. */
const prose = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** JSON inside a script element: `<` escaped, so no text can close the element. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function layout(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/tools/tool-pages.css">
<script src="/tools/tool-pages.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
<a class="brand" href="/">Toolshed</a>
<nav aria-label="Site"><a href="/">All tools</a> <a href="/docs">API reference</a></nav>
</header>
<main id="main">
${main}
</main>
</body>
</html>
`;
}

const groupId = (group: string): string => `group-${escapeHtml(group)}`;

export const IDENTIFY_PAGE = '/tools/recipes/identify';

/** The list page's "what is this?" box: the script sends the input to identify and links each candidate to its tool or recipe. */
function identifyBox(catalog: Catalog): string {
  return `<section class="identify" aria-labelledby="identify-heading">
<h2 id="identify-heading">What is this?</h2>
<form id="identify" novalidate aria-labelledby="identify-heading" data-path="/v1/recipes/identify" data-targets="${escapeHtml(JSON.stringify(linkTargets(catalog)))}">
<label for="identify-input">Paste anything (a token, an encoded value, a date, a colour) to learn what it is and open the tool that reads it</label>
<textarea id="identify-input" rows="2" spellcheck="false" autocomplete="off"></textarea>
<div class="actions"><button type="submit" class="primary">Identify</button><p id="identify-status" class="status" role="status"></p></div>
</form>
<ol id="identify-results" class="candidates" aria-label="What the input may be" hidden></ol>
</section>`;
}

/**
 * GET /: every tool under its category, with a search box the script focuses and ranks with (the
 * index is a data block, tool-pages/shared/search.ts); favourites and recent tools are filled in by
 * the script. The groups are plain boxes, not sections: a page of forty landmark regions is no
 * map, so the landmarks are the bar, the search, "What is this?" and the kept tools.
 */
export function listPage(catalog: Catalog): string {
  const count = catalog.groups.reduce((sum, group) => sum + group.tools.length, 0);
  const categories = catalog.categories.map((category) => {
    const groups = category.groups.map((group) => {
      const items = group.tools
        .map((tool) => `<li><a href="${escapeHtml(tool.page)}"><span class="op">${escapeHtml(tool.action)}</span> <span class="summary">${escapeHtml(tool.summary)}</span></a></li>`)
        .join('\n');
      return `<div class="group" id="${groupId(group.name)}">
<h3>${escapeHtml(group.title)}</h3>
<ul class="tools">
${items}
</ul>
</div>`;
    });
    return `<div class="category">
<h2>${escapeHtml(category.name)}</h2>
<div class="groups">
${groups.join('\n')}
</div>
</div>`;
  });
  const index = catalog.categories.flatMap((category) => category.groups.flatMap((group) => group.tools.map((tool) => tool.search)));
  return layout(
    'Toolshed tools',
    `<h1>Tools</h1>
<p class="lead">${count} tools in ${catalog.groups.length} groups, each run by this service. Requests are processed in memory only and are neither stored nor logged.</p>
<div class="search" role="search" aria-label="Tools">
<label for="search">Search the tools</label>
<input id="search" type="search" placeholder="jwt, sha256, epoch, cidr, hex…" autocomplete="off" spellcheck="false" aria-describedby="search-hint" aria-controls="search-results">
<p id="search-hint" class="hint">Best match first: ↑ and ↓ pick a result, Enter opens it.</p>
<p id="search-status" role="status" aria-live="polite"></p>
<ol id="search-results" class="results" aria-label="Matching tools, best first" hidden></ol>
</div>
${catalog.pages.has(IDENTIFY_PAGE) ? identifyBox(catalog) : ''}
<section id="kept" class="kept" aria-label="Your tools" hidden></section>
<div id="all-tools">
${categories.join('\n')}
</div>
<script type="application/json" id="search-index">${scriptJson(index)}</script>`,
  );
}

/** GET /tools/<group>/<operation>: the tool's frame; tool-pages.js builds the form inside #tool. `identify`: identify's path, when the service has it. */
export function toolPage(tool: Tool, next: readonly StepChoice[] = [], identify?: string): string {
  const description = tool.description ? `\n<details class="description"><summary>How it works</summary><p>${prose(tool.description)}</p></details>` : '';
  const data = {
    path: tool.path,
    page: tool.page,
    name: `${tool.group}/${tool.name}`,
    title: `${tool.title}: ${tool.action.toLowerCase()}`,
    live: tool.live,
    clock: tool.clock,
    body: tool.body,
    response: tool.response,
    examples: tool.examples,
    ...(tool.io ? { io: tool.io } : {}),
    // The operations "send this answer to…" offers (recipe-data.ts), and identify, which orders them.
    next,
    ...(identify !== undefined && next.length > 0 ? { identify } : {}),
  };
  return layout(
    `${tool.title}: ${tool.action.toLowerCase()} · Toolshed`,
    `<nav aria-label="Breadcrumb" class="crumbs"><a href="/">Tools</a> › <a href="/#${groupId(tool.group)}">${escapeHtml(tool.title)}</a></nav>
<div class="title-row"><h1>${escapeHtml(tool.title)} <span class="op">${escapeHtml(tool.action)}</span></h1><div id="tool-actions" class="tool-actions"></div></div>
<p class="lead">${prose(tool.summary)}</p>${description}
<p class="meta"><code>POST ${escapeHtml(tool.path)}</code> · <a href="${escapeHtml(tool.reference)}">In the API reference</a></p>
<div id="tool"><p class="needs-script">This page builds the tool's form with its script; the script did not run.</p></div>
<script type="application/json" id="tool-data">${scriptJson(data)}</script>`,
  );
}

/** GET /tools/recipes/run: the recipe page; tool-pages.js builds the steps, runs them and shares the recipe by address. */
export function recipePage(tool: Tool, data: RecipePageData): string {
  return layout(
    'Recipe · Toolshed',
    `<nav aria-label="Breadcrumb" class="crumbs"><a href="/">Tools</a> › <a href="/#${groupId(tool.group)}">${escapeHtml(tool.title)}</a></nav>
<div class="title-row"><h1>Recipe</h1><div id="tool-actions" class="tool-actions"></div></div>
<p class="lead">A chain of operations run by this service in one request: each step's answer feeds the next step's main field unless its body sets that field. Share a recipe by its link: the recipe and its input stay in the address's fragment, which the browser never sends.</p>
<p class="meta"><code>POST ${escapeHtml(tool.path)}</code> · <a href="${escapeHtml(tool.reference)}">In the API reference</a></p>
<div id="recipe"><p class="needs-script">This page builds the recipe with its script; the script did not run.</p></div>
<script type="application/json" id="recipe-data">${scriptJson({ path: tool.path, page: RECIPE_PAGE, ...data })}</script>`,
  );
}

/** The answer to any other GET under /tools/: a page that says so, with the likely tool when there is one. */
export function notFoundPage(path: string, likely: Tool | undefined): string {
  const hint = likely ? `<p>Did you mean <a href="${escapeHtml(likely.page)}">${escapeHtml(likely.title)}: ${escapeHtml(likely.action.toLowerCase())}</a>?</p>\n` : '';
  return layout(
    'No such tool · Toolshed',
    `<h1>No tool at this address</h1>
<p class="lead">There is no tool at <code>${escapeHtml(path.slice(0, 200))}</code>.</p>
${hint}<p><a href="/">See all tools</a>.</p>`,
  );
}

/** The answer to a page of a group the operator switched off. */
export function disabledPage(group: string): string {
  return layout(
    `${group} is switched off · Toolshed`,
    `<h1>This tool is switched off</h1>
<p class="lead">The <code>${escapeHtml(group)}</code> tools exist but are switched off on this server by its operator, so they have no page and their API answers 404.</p>
<p><a href="/">See the tools this server offers</a>.</p>`,
  );
}
