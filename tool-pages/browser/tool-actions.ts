/** The buttons beside a tool page's title: Favourite (kept in this browser) and Copy link (the filled form in the address). */
import type { Json } from '../shared/schema.js';
import { copyText, h } from './dom.js';
import { addressWith, isFavourite, noteRecent, setFavourite } from './store.js';

/** Longer inputs stay out of a copied link (a dropped file): the link then opens the empty tool. */
const MAX_LINK_INPUT = 8000;

export function toolActions(tool: { readonly page: string; readonly title: string }, currentBody: () => Json | undefined): void {
  const holder = document.getElementById('tool-actions');
  if (!holder) return;
  const kept = { page: tool.page, title: tool.title.charAt(0).toUpperCase() + tool.title.slice(1) };
  const star = h('button', { type: 'button', class: 'secondary favourite', 'aria-pressed': String(isFavourite(tool.page)) }, 'Favourite');
  star.addEventListener('click', () => {
    const on = star.getAttribute('aria-pressed') !== 'true';
    setFavourite(kept, on);
    star.setAttribute('aria-pressed', String(on));
  });
  const link = h('button', { type: 'button', class: 'secondary copy-link' }, 'Copy link');
  link.addEventListener('click', () => {
    const body = currentBody();
    const text = body !== undefined && JSON.stringify(body).length <= MAX_LINK_INPUT ? addressWith(body) : location.origin + location.pathname;
    void copyText(text).then(() => (link.textContent = 'Link copied'));
  });
  holder.replaceChildren(star, link);
  noteRecent(kept);
}
