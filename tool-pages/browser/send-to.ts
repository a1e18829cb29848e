/**
 * "Send this answer to…", beside the answer's Copy button: a choice of the operations whose main
 * input takes this operation's main output (the manifests' `io`; the server lists them,
 * tool-pages/recipe-data.ts), and a button that opens the recipe page with [this operation on this
 * input, the chosen one]. The likely ones come first: when the person turns to the choice, the
 * answer's main output goes to identify (one request, asked only then), and the tools its
 * candidates start with are listed under "Likely next" before all of them A–Z.
 */
import { recipeAddress, recipeFragment, sendTo, type Io } from '../shared/recipes.js';
import { isRecord, type Json } from '../shared/schema.js';
import { freshId, h } from './dom.js';
import { armRun } from './store.js';

export interface SendTarget {
  readonly name: string;
  readonly label: string;
}

export interface SendOptions {
  readonly operation: string;
  readonly io: Io | undefined;
  readonly next: readonly SendTarget[];
  /** The request whose answer is sent on. */
  readonly body: Json;
  readonly answer: Json | undefined;
  /** identify's path, when the service has it. */
  readonly identify: string | undefined;
}

/** The operations identify's likely candidates (above 0.5, as on the list page) start with, in its order. */
async function likelyNext(path: string, input: string): Promise<string[]> {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ input }) });
  const json = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok || !isRecord(json) || !Array.isArray(json.candidates)) return [];
  return json.candidates.filter(isRecord).flatMap((candidate) => {
    const steps = isRecord(candidate.recipe) && Array.isArray(candidate.recipe.steps) ? candidate.recipe.steps : [];
    const first = steps[0];
    return typeof candidate.confidence === 'number' && candidate.confidence > 0.5 && isRecord(first) && typeof first.operation === 'string' ? [first.operation] : [];
  });
}

/** The control for an answer, or null when no operation can take it. */
export function sendControl(options: SendOptions): HTMLElement | null {
  const { next } = options;
  if (next.length === 0) return null;
  const id = freshId('send-to');
  const option = (target: SendTarget): HTMLOptionElement => h('option', { value: target.name }, target.label);
  const select = h('select', { id, class: 'send-choice' }, h('option', { value: '' }, 'Choose a tool…'), ...next.map(option));
  const send = h('button', { type: 'button', class: 'secondary send' }, 'Send');
  send.addEventListener('click', () => {
    if (select.value === '') return select.focus();
    const recipe = sendTo(options.operation, options.io, options.body, select.value);
    // The visitor asked for this run: the recipe page runs it at once (a link from elsewhere only fills it).
    armRun(recipeFragment(recipe));
    location.assign(recipeAddress(recipe));
  });
  // Enter on the choice sends, as a person at the keyboard expects of a picked option.
  select.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && select.value !== '') {
      event.preventDefault();
      send.click();
    }
  });
  const output = options.io?.output !== undefined && isRecord(options.answer) ? options.answer[options.io.output] : undefined;
  if (options.identify !== undefined && typeof output === 'string' && output.trim() !== '') {
    let asked = false;
    const ask = (): void => {
      if (asked) return;
      asked = true;
      void likelyNext(options.identify!, output).then((operations) => {
        const likely = [...new Set(operations)].map((name) => next.find((target) => target.name === name)).filter((target): target is SendTarget => target !== undefined);
        if (likely.length === 0) return;
        const chosen = select.value;
        select.replaceChildren(select.options[0]!, h('optgroup', { label: 'Likely next' }, ...likely.map(option)), h('optgroup', { label: 'All tools, A–Z' }, ...next.map(option)));
        select.value = chosen;
      }, () => undefined);
    };
    select.addEventListener('focus', ask);
    select.addEventListener('pointerdown', ask);
  }
  return h('div', { class: 'send-to' }, h('label', { for: id }, 'Send this answer to…'), select, send);
}
