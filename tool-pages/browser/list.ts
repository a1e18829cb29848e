/**
 * The list page: the search (focused on load; every word must match a tool's title, names,
 * summaries, keywords or field names; Enter opens the first match) and the person's favourite and
 * recent tools, kept in this browser. The "What is this?" box below the search is identify.ts.
 */
import { h } from './dom.js';
import { favourites, recentTools, type KeptTool } from './store.js';

function keptSection(heading: string, tools: readonly KeptTool[]): HTMLElement | null {
  if (tools.length === 0) return null;
  const id = `kept-${heading.toLowerCase().replace(/\W+/g, '-')}`;
  return h('div', { class: 'kept-list' }, h('h2', { id }, heading), h('ul', { class: 'kept-tools', 'aria-labelledby': id }, ...tools.map((tool) => h('li', {}, h('a', { href: tool.page }, tool.title)))));
}

/** Favourites and recent tools above the categories, when there are any. */
function showKept(): void {
  const holder = document.getElementById('kept');
  if (!holder) return;
  const sections = [keptSection('Favourites', favourites()), keptSection('Recently used', recentTools())].filter((section): section is HTMLElement => section !== null);
  holder.replaceChildren(...sections);
  holder.hidden = sections.length === 0;
}

export function listPage(input: HTMLInputElement): void {
  const status = document.getElementById('search-status')!;
  const items = [...document.querySelectorAll<HTMLLIElement>('li[data-search]')];
  const filter = (): void => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of items) {
      const text = item.dataset.search ?? '';
      item.hidden = !words.every((word) => text.includes(word));
      if (!item.hidden) shown++;
    }
    for (const group of document.querySelectorAll<HTMLElement>('section.group')) group.hidden = group.querySelector('li:not([hidden])') === null;
    for (const category of document.querySelectorAll<HTMLElement>('section.category')) category.hidden = category.querySelector('section.group:not([hidden])') === null;
    const kept = document.getElementById('kept');
    if (kept) kept.hidden = words.length > 0 || kept.childElementCount === 0;
    status.textContent = words.length === 0 ? '' : shown === 0 ? 'No tool matches.' : `${shown} tool${shown === 1 ? '' : 's'} match.`;
  };
  input.addEventListener('input', filter);
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const first = items.find((item) => !item.hidden)?.querySelector('a');
    if (first && input.value.trim() !== '') {
      event.preventDefault();
      location.assign(first.href);
    }
  });
  showKept();
  filter();
  input.focus();
}
