/** A few lines in place of a framework: make an element with attributes and children. */

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string | boolean | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

let counter = 0;
/** A fresh element id, for label `for` and `aria-describedby`. */
export const freshId = (prefix: string): string => `${prefix}-${++counter}`;

/** Copies `text`; over plain HTTP (no Clipboard API) through a selected, hidden text area. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = h('textarea', { 'aria-hidden': 'true', class: 'offscreen' });
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** A "Copy" button for `text`, saying "Copied" for a moment; `small` beside a value on one line. */
export function copyButton(text: () => string, what: string, size: 'small' | 'normal' = 'normal'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: size === 'small' ? 'copy small' : 'copy', 'aria-label': `Copy ${what}` }, 'Copy');
  button.addEventListener('click', () => {
    void copyText(text()).then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), 1500);
      },
      () => (button.textContent = 'Copy failed'),
    );
  });
  return button;
}

/** A button that saves `bytes` (or what `bytes()` makes when clicked) as a file named `name`. */
export function downloadButton(bytes: BlobPart | (() => Promise<Blob>), type: string, name: string, what: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'download' }, `Download ${what}`);
  button.addEventListener('click', () => {
    const made = typeof bytes === 'function' ? bytes() : Promise.resolve(new Blob([bytes], { type }));
    void made.then(
      (blob) => {
        const url = URL.createObjectURL(blob);
        const link = h('a', { href: url, download: name, class: 'offscreen' });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      },
      () => (button.textContent = `Download ${what} failed`),
    );
  });
  return button;
}
