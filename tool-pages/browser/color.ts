/** Colours on the pages: a picker beside colour fields, and swatches beside colour answers. */
import { h } from './dom.js';

/** Any CSS colour → `#rrggbb` for a colour input (translucent colours lose their alpha), or undefined. */
export function hexOf(text: string): string | undefined {
  if (text.trim() === '' || !CSS.supports('color', text)) return undefined;
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return undefined;
  context.fillStyle = '#000000';
  context.fillStyle = text;
  const value = context.fillStyle;
  if (value.startsWith('#')) return value;
  // Translucent colours read back as rgba(r, g, b, a).
  const channels = /^rgba?\((\d+), (\d+), (\d+)/.exec(value);
  return channels ? `#${channels.slice(1, 4).map((channel) => Number(channel).toString(16).padStart(2, '0')).join('')}` : undefined;
}

/** A colour input beside a text field of a CSS colour: picking writes hex into the text; typing moves the picker. */
export function colorPicker(text: HTMLInputElement | HTMLTextAreaElement, label: string): { element: HTMLInputElement; follow(): void } {
  const picker = h('input', { type: 'color', class: 'color-picker', 'aria-label': `Pick ${label.toLowerCase()}` });
  const follow = (): void => {
    const hex = hexOf(text.value);
    if (hex) picker.value = hex;
  };
  picker.addEventListener('input', () => {
    text.value = picker.value;
    text.dispatchEvent(new Event('input', { bubbles: true }));
  });
  text.addEventListener('input', follow);
  return { element: picker, follow };
}

/** A square of `text`'s colour, or nothing when the browser cannot read it as a CSS colour. */
export function swatch(text: string): HTMLElement | null {
  if (!CSS.supports('color', text)) return null;
  const square = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  // Set through the CSS object model, which the page's policy (no inline style attributes) allows.
  square.style.backgroundColor = text;
  return square;
}
