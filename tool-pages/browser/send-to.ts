/**
 * "Send this answer to…", beside the answer's Copy button: a choice of the operations whose main
 * input takes this operation's main output (the server lists them, tool-pages/recipe-data.ts), and
 * a button that opens the recipe page with [this operation on this input, the chosen one].
 */
import { recipeAddress, sendTo, type Io } from '../shared/recipes.js';
import type { Json } from '../shared/schema.js';
import { freshId, h } from './dom.js';

export interface SendTarget {
  readonly name: string;
  readonly label: string;
}

/** The control for an answer to `body`, or null when no operation can take this answer. */
export function sendControl(operation: string, io: Io | undefined, next: readonly SendTarget[], body: Json): HTMLElement | null {
  if (next.length === 0) return null;
  const id = freshId('send-to');
  const select = h('select', { id, class: 'send-choice' }, h('option', { value: '' }, 'Choose a tool…'), ...next.map((target) => h('option', { value: target.name }, target.label)));
  const send = h('button', { type: 'button', class: 'secondary send' }, 'Send');
  send.addEventListener('click', () => {
    if (select.value === '') return select.focus();
    location.assign(recipeAddress(sendTo(operation, io, body, select.value)));
  });
  // Enter on the choice sends, as a person at the keyboard expects of a picked option.
  select.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && select.value !== '') {
      event.preventDefault();
      send.click();
    }
  });
  return h('div', { class: 'send-to' }, h('label', { for: id }, 'Send this answer to…'), select, send);
}
