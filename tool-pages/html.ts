/**
 * The pages' HTML, rendered on the server: the list of tools (usable without the script; the
 * script adds the search) and the frame of each tool page, whose form the script builds from the
 * operation's data, carried in a JSON data block (not executed, so the policy's `script-src 'self'`
 * holds).
 */
import type { Catalog, Tool } from './catalog.js';

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

/** GET /: every group and its operations, with a search box. */
export function listPage(catalog: Catalog): string {
  const count = catalog.groups.reduce((sum, group) => sum + group.tools.length, 0);
  const groups = catalog.groups.map((group) => {
    const items = group.tools
      .map((tool) => `<li data-search="${escapeHtml(tool.searchText)}"><a href="${escapeHtml(tool.page)}"><span class="op">${escapeHtml(tool.name)}</span> <span class="summary">${escapeHtml(tool.summary)}</span></a></li>`)
      .join('\n');
    const summary = group.summary ? `\n<p class="group-summary">${prose(group.summary)}</p>` : '';
    return `<section class="group" id="group-${escapeHtml(group.name)}" aria-labelledby="heading-${escapeHtml(group.name)}">
<h2 id="heading-${escapeHtml(group.name)}">${escapeHtml(group.name)}</h2>${summary}
<ul class="tools">
${items}
</ul>
</section>`;
  });
  return layout(
    'Toolshed tools',
    `<h1>Tools</h1>
<p class="lead">${count} tools in ${catalog.groups.length} groups, each run by this service. Requests are processed in memory only and are neither stored nor logged.</p>
<div class="search">
<label for="search">Search the tools</label>
<input id="search" type="search" placeholder="jwt, cron, hex…" autocomplete="off" spellcheck="false">
<p id="search-status" role="status" aria-live="polite"></p>
</div>
${groups.join('\n')}`,
  );
}

/** GET /tools/<group>/<operation>: the tool's frame; tool-pages.js builds the form inside #tool. */
export function toolPage(tool: Tool): string {
  const description = tool.description ? `\n<details class="description"><summary>How it works</summary><p>${prose(tool.description)}</p></details>` : '';
  const data = { path: tool.path, body: tool.body, response: tool.response, examples: tool.examples };
  return layout(
    `${tool.group} ${tool.name} · Toolshed`,
    `<nav aria-label="Breadcrumb" class="crumbs"><a href="/">Tools</a> › <a href="/#group-${escapeHtml(tool.group)}">${escapeHtml(tool.group)}</a></nav>
<h1>${escapeHtml(tool.group)} <span class="op">${escapeHtml(tool.name)}</span></h1>
<p class="lead">${prose(tool.summary)}</p>${description}
<p class="meta"><code>POST ${escapeHtml(tool.path)}</code> · <a href="${escapeHtml(tool.reference)}">In the API reference</a></p>
<div id="tool"><p class="needs-script">This page builds the tool's form with its script; the script did not run.</p></div>
<script type="application/json" id="tool-data">${scriptJson(data)}</script>`,
  );
}
