/**
 * The list page: the search (focused on load) ranks the tools as the person types
 * (tool-pages/shared/search.ts) and lists the matches best first in place of the categories; ↑ and
 * ↓ move the highlight, Enter opens the highlighted one (the best, until moved). Above the
 * categories, the person's favourite and recent tools, kept in this browser, with a button that
 * forgets everything kept. The "What is this?" box below the search is identify.ts.
 */
import type { SearchEntry } from '../shared/search.js';
import { searcher } from '../shared/search.js';
import { h } from './dom.js';
import { favourites, forgetAll, recentTools, type KeptTool } from './store.js';

function keptSection(heading: string, tools: readonly KeptTool[]): HTMLElement | null {
  if (tools.length === 0) return null;
  const id = `kept-${heading.toLowerCase().replace(/\W+/g, '-')}`;
  return h('div', { class: 'kept-list' }, h('h2', { id }, heading), h('ul', { class: 'kept-tools', 'aria-labelledby': id }, ...tools.map((tool) => h('li', {}, h('a', { href: tool.page }, tool.title)))));
}

/** Favourites and recent tools above the categories, when there are any, and the button that forgets them and every kept input. */
function showKept(searching: () => boolean): void {
  const holder = document.getElementById('kept');
  if (!holder) return;
  const sections = [keptSection('Favourites', favourites()), keptSection('Recently used', recentTools())].filter((section): section is HTMLElement => section !== null);
  const forget = h('button', { type: 'button', class: 'secondary forget' }, 'Forget what this browser keeps');
  forget.addEventListener('click', () => {
    forgetAll();
    showKept(searching);
    document.getElementById('search-status')!.textContent = 'Forgotten: your favourites, recent tools and every input this browser kept for these pages.';
  });
  holder.replaceChildren(...sections, ...(sections.length > 0 ? [h('p', { class: 'forget-line' }, forget, h('span', { class: 'hint' }, ' Favourites, recent tools and the last input of each tool stay in this browser only.'))] : []));
  holder.hidden = sections.length === 0 || searching();
}

export function listPage(input: HTMLInputElement): void {
  const status = document.getElementById('search-status')!;
  const results = document.getElementById('search-results')!;
  const everything = document.getElementById('all-tools');
  const kept = document.getElementById('kept');
  let entries: SearchEntry[] = [];
  try {
    entries = JSON.parse(document.getElementById('search-index')?.textContent ?? '[]') as SearchEntry[];
  } catch {
    // Without the index the categories stay, unfiltered: every tool is still a link.
  }
  const rank = searcher(entries);
  let shown: SearchEntry[] = [];
  let active = 0;

  const say = (): void => {
    const count = `${shown.length} tool${shown.length === 1 ? '' : 's'} match${shown.length === 1 ? 'es' : ''}`;
    status.textContent = shown.length === 0 ? 'No tool matches.' : `${count}. Enter opens ${shown[active]!.label}.`;
  };
  const highlight = (index: number): void => {
    active = index;
    results.querySelectorAll('li').forEach((item, at) => item.classList.toggle('active', at === index));
    results.children[index]?.scrollIntoView({ block: 'nearest' });
    say();
  };
  const filter = (): void => {
    const query = input.value.trim();
    shown = query === '' ? [] : rank(query);
    results.replaceChildren(...shown.map((entry) => h('li', {}, h('a', { href: entry.page }, h('span', { class: 'op' }, entry.label), ' ', h('span', { class: 'summary' }, entry.summary)))));
    results.hidden = query === '' || shown.length === 0;
    if (everything) everything.hidden = query !== '';
    if (kept) kept.hidden = query !== '' || kept.childElementCount === 0;
    if (query === '') status.textContent = '';
    else highlight(0);
  };
  input.addEventListener('input', filter);
  input.addEventListener('keydown', (event) => {
    if (shown.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      highlight((active + (event.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      location.assign(shown[active]!.page);
    }
  });
  showKept(() => input.value.trim() !== '');
  filter();
  input.focus();
}
