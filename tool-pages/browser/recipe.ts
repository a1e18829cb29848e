/**
 * The recipe page (/tools/recipes/run): steps chosen from the operations with a search, each
 * step's body edited as JSON (its main field left out is filled from the step before), the recipe
 * run with `keep: "all"` so every step's answer is shown, and the recipe and input kept in the
 * address's fragment: a copied link reopens the recipe filled and runs it, and nothing of it
 * reaches a server log.
 */
import { viewOf } from '../shared/answers.js';
import { problemOf } from '../shared/problems.js';
import { recipeFragment, recipeFromFragment, type Recipe, type RecipeStep } from '../shared/recipes.js';
import { isRecord, type Json } from '../shared/schema.js';
import { answerText, render } from './answer.js';
import type { RecipeOperation as Operation, RecipePageData } from '../recipe-data.js';
import { copyButton, copyText, freshId, h } from './dom.js';

/** What the server writes into the page (tool-pages/recipe-data.ts), and the page's own path. */
export interface RecipeData extends RecipePageData {
  readonly path: string;
}

/** One step on the page: its operation and the text of its body, kept across redraws. */
interface StepState {
  readonly operation: string;
  text: string;
}

const MAX_STEPS = 32;

/** A body or the input that is not JSON: `index` is the step, or -1 for the input. */
class NotJson extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** Sentences about a step: what it does, which field the step before fills, what else it takes. */
function stepHint(operation: Operation | undefined, index: number): string {
  if (!operation) return 'This service has no such operation; running the recipe names the nearest.';
  const input = operation.io?.input;
  const feeds = input === undefined ? '' : index === 0 ? ` Its ${input} comes from the recipe's input unless the body sets it.` : ` Its ${input} comes from the step before unless the body sets it.`;
  const fields = operation.fields.filter((field) => field !== input);
  return `${operation.summary}.${feeds}${fields.length > 0 ? ` Other fields: ${fields.join(', ')}.` : ''}`;
}

function rawJson(value: Json | undefined, what: string): HTMLElement {
  const text = JSON.stringify(value, null, 2);
  return h('details', { class: 'raw' }, h('summary', {}, `${what} as JSON`), h('div', { class: 'code' }, h('pre', { tabindex: '0', 'aria-label': `${what} as JSON` }, h('code', {}, text)), copyButton(() => text, `${what.toLowerCase()} as JSON`)));
}

export function recipePage(holder: HTMLElement, data: RecipeData): void {
  const byName = new Map(data.operations.map((operation) => [operation.name, operation]));
  const steps: StepState[] = [];
  const inputId = freshId('recipe-input');
  const input = h('textarea', { id: inputId, rows: '4', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${inputId}-hint ${inputId}-error` });
  const inputError = h('p', { class: 'field-error', id: `${inputId}-error`, hidden: true });
  const asJson = h('input', { type: 'checkbox', id: `${inputId}-json` });
  const list = h('ol', { class: 'steps', 'aria-labelledby': 'steps-heading' });
  const searchId = freshId('add-step');
  const search = h('input', { type: 'search', id: searchId, list: `${searchId}-list`, autocomplete: 'off', spellcheck: 'false', placeholder: 'base64, jwt, hash…', 'aria-describedby': `${searchId}-status` });
  const options = h('datalist', { id: `${searchId}-list` }, ...data.operations.map((operation) => h('option', { value: operation.name }, operation.label)));
  const addStatus = h('p', { class: 'hint', id: `${searchId}-status`, role: 'status' });
  const add = h('button', { type: 'button', class: 'secondary' }, 'Add step');
  const run = h('button', { type: 'submit', class: 'primary' }, 'Run');
  const status = h('p', { class: 'status', role: 'status' });
  const placeholder = h('p', { class: 'answer-placeholder' }, 'Each step\'s answer appears here after Run.');
  const answerActions = h('div', { class: 'answer-actions' });
  const output = h('div', { class: 'answer-body' });
  const answer = h('section', { class: 'answer', 'aria-labelledby': 'answer-heading', hidden: true }, h('div', { class: 'answer-head' }, h('h2', { id: 'answer-heading' }, 'Answer'), answerActions), output);
  const form = h(
    'form',
    { novalidate: true, 'aria-label': 'Recipe' },
    h('div', { class: 'field' }, h('label', { for: inputId }, 'Input'), input, h('p', { class: 'hint', id: `${inputId}-hint` }, 'The first step\'s main field, unless its body sets it.'), inputError),
    h('div', { class: 'field inline' }, asJson, h('label', { for: asJson.id }, 'Read the input as JSON (a number, a list, an object)')),
    h('h2', { id: 'steps-heading' }, 'Steps'),
    list,
    h('div', { class: 'field add-step' }, h('label', { for: searchId }, 'Add a step: search the operations'), h('div', { class: 'add-row' }, search, add), options, addStatus),
    h('div', { class: 'actions' }, run, status),
    h('p', { class: 'hint keys-line' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'), ' runs from any field.'),
  );

  const errorOf = (index: number): HTMLElement | null => list.children[index]?.querySelector('.field-error') ?? null;
  const areaOf = (index: number): HTMLTextAreaElement | null => list.children[index]?.querySelector('textarea') ?? null;

  function draw(focus?: { index: number; what: string }): void {
    list.replaceChildren(
      ...steps.map((step, index) => {
        const operation = byName.get(step.operation);
        const label = operation?.label ?? step.operation;
        const id = freshId('step-body');
        const area = h('textarea', { id, rows: '2', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${id}-hint ${id}-error` });
        area.value = step.text;
        area.addEventListener('input', () => (step.text = area.value));
        const move = (to: number, what: string): HTMLButtonElement => {
          const button = h('button', { type: 'button', class: 'secondary', 'aria-label': `${what}: step ${index + 1}, ${label}` }, what);
          const last = to < 0 || to >= steps.length;
          if (what === 'Remove') {
            button.addEventListener('click', () => {
              steps.splice(index, 1);
              draw({ index: Math.min(index, steps.length - 1), what: 'body' });
            });
          } else if (last) button.disabled = true;
          else {
            button.addEventListener('click', () => {
              [steps[index], steps[to]] = [steps[to]!, steps[index]!];
              draw({ index: to, what });
            });
          }
          return button;
        };
        return h(
          'li',
          { class: 'step' },
          h(
            'fieldset',
            {},
            h('legend', {}, `Step ${index + 1}: ${label}`),
            h('p', { class: 'hint', id: `${id}-hint` }, stepHint(operation, index)),
            h('div', { class: 'field' }, h('label', { for: id }, `Body of step ${index + 1} (JSON object; may be left empty)`), area, h('p', { class: 'field-error', id: `${id}-error`, hidden: true })),
            h('div', { class: 'step-actions' }, move(index - 1, 'Move up'), move(index + 1, 'Move down'), move(-1, 'Remove')),
          ),
        );
      }),
    );
    if (steps.length === 0) list.append(h('li', { class: 'hint no-steps' }, 'No steps yet: add one below.'));
    if (focus === undefined) return;
    const item = list.children[focus.index];
    const target = focus.what === 'body' ? item?.querySelector('textarea') : [...(item?.querySelectorAll('button') ?? [])].find((button) => button.textContent === focus.what && !button.disabled);
    (target ?? search).focus();
  }

  function addStep(): void {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    // Every word must match the name, label or summary; words in the name itself rank first ("base64 encode" is base64/encode, not the Base64 encoder's decode).
    const matching = data.operations.filter((operation) => words.length > 0 && words.every((word) => `${operation.name} ${operation.label} ${operation.summary}`.toLowerCase().includes(word)));
    const inName = (operation: Operation): number => words.filter((word) => operation.name.includes(word)).length;
    const found = byName.get(search.value.trim()) ?? matching.sort((a, b) => inName(b) - inName(a))[0];
    if (!found) {
      addStatus.textContent = words.length === 0 ? 'Type part of an operation\'s name first.' : 'No operation matches; try another word.';
      return;
    }
    if (steps.length >= MAX_STEPS) {
      addStatus.textContent = `A recipe has at most ${MAX_STEPS} steps.`;
      return;
    }
    steps.push({ operation: found.name, text: found.example ? JSON.stringify(found.example) : '' });
    search.value = '';
    addStatus.textContent = `Added step ${steps.length}: ${found.label}.`;
    draw();
  }

  const clearMarks = (): void => {
    for (const element of [...list.querySelectorAll<HTMLElement>('.field-error'), inputError]) {
      element.hidden = true;
      element.textContent = '';
    }
    for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid');
    status.classList.remove('problem');
  };
  const mark = (area: HTMLElement | null, message: HTMLElement | null, text: string): void => {
    area?.setAttribute('aria-invalid', 'true');
    if (!message) return;
    message.textContent = message.textContent ? `${message.textContent} ${text}` : text;
    message.hidden = false;
  };
  const fail = (text: string, focus: HTMLElement | null | undefined, mode: 'run' | 'reopen'): void => {
    output.replaceChildren();
    answerActions.replaceChildren();
    answer.hidden = true;
    placeholder.hidden = false;
    status.textContent = text;
    status.classList.add('problem');
    if (mode === 'run') focus?.focus();
  };

  /** The recipe as the page holds it; throws a message and the field to mark when a body or the input is not JSON. */
  function readRecipe(): Recipe {
    const recipeSteps = steps.map((step, index): RecipeStep => {
      if (step.text.trim() === '') return { operation: step.operation };
      let body: unknown;
      try {
        body = JSON.parse(step.text);
      } catch {
        throw new NotJson(index, 'This body is not JSON: write an object such as {"field": "value"}, or leave it empty.');
      }
      if (!isRecord(body)) throw new NotJson(index, 'The body must be a JSON object, in braces.');
      return { operation: step.operation, body };
    });
    if (input.value === '') return { steps: recipeSteps };
    if (!asJson.checked) return { input: input.value, steps: recipeSteps };
    try {
      return { input: JSON.parse(input.value) as Json, steps: recipeSteps };
    } catch {
      throw new NotJson(-1, 'The input is not JSON: untick "Read the input as JSON" to send it as text.');
    }
  }

  function showAnswers(recipe: Recipe, json: Json | undefined): void {
    const answers = isRecord(json) && Array.isArray(json.steps) ? json.steps.filter(isRecord) : [];
    const last = byName.get(recipe.steps[recipe.steps.length - 1]?.operation ?? '');
    const view = viewOf(last?.response, isRecord(json) ? json.result : undefined);
    const each = answers.map((entry, index) => {
      const operation = byName.get(String(entry.operation));
      const what = `Step ${index + 1}: ${operation?.label ?? String(entry.operation)}`;
      return h('li', { class: 'step-answer' }, h('h3', {}, what), h('div', { class: 'view' }, render(viewOf(operation?.response, entry.answer), what, { fileName: String(entry.operation).replace('/', '-') })), rawJson(entry.answer, `The answer of step ${index + 1}`));
    });
    output.replaceChildren(
      h('div', { class: 'view result' }, render(view, 'Answer', { fileName: 'recipe' })),
      rawJson(isRecord(json) ? json.result : undefined, 'The answer'),
      h('h3', { class: 'each-heading' }, 'Each step\'s answer'),
      h('ol', { class: 'step-answers' }, ...each),
    );
    answerActions.replaceChildren(copyButton(() => answerText(view), 'the answer'));
    answer.hidden = false;
    placeholder.hidden = true;
  }

  async function send(mode: 'run' | 'reopen'): Promise<void> {
    clearMarks();
    let recipe: Recipe;
    try {
      recipe = readRecipe();
    } catch (error) {
      if (!(error instanceof NotJson)) throw error;
      const { index, message } = error;
      mark(index < 0 ? input : areaOf(index), index < 0 ? inputError : errorOf(index), message);
      return fail(`Check the marked field: ${message}`, index < 0 ? input : areaOf(index), mode);
    }
    if (recipe.steps.length === 0) return fail('Add a step first: search the operations below the steps.', search, mode);
    history.replaceState(null, '', recipeFragment(recipe));
    run.setAttribute('aria-busy', 'true');
    status.textContent = 'Running…';
    let response: Response;
    try {
      response = await fetch(data.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...recipe, keep: 'all' }) });
    } catch {
      run.removeAttribute('aria-busy');
      return fail('The service could not be reached: check the connection and try again.', undefined, mode);
    }
    const json = (await response.json().catch(() => undefined)) as Json | undefined;
    run.removeAttribute('aria-busy');
    if (response.ok) {
      status.textContent = 'Done.';
      return showAnswers(recipe, json);
    }
    // A place under /steps/N names the step: its body carries the message; /input, the input.
    const labelOf = (pointer: string): string => {
      const step = /^\/steps\/(\d+)/.exec(pointer);
      return step ? `Step ${Number(step[1]) + 1}${pointer.replace(/^\/steps\/\d+(?:\/body)?/, '').replace(/\//g, ' ') || ''}` : pointer === '/input' ? 'The input' : 'The recipe';
    };
    const problem = problemOf(response.status, json, response.headers.get('Retry-After'), labelOf);
    const error = isRecord(json) && isRecord(json.error) ? json.error : {};
    const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
    let first: HTMLElement | null = null;
    for (const detail of details) {
      const step = /^\/steps\/(\d+)/.exec(String(detail.path));
      const index = step ? Number(step[1]) : -1;
      const said = problem.fields.find((field) => field.pointer === detail.path)?.message ?? String(detail.message ?? problem.message);
      const area = index >= 0 ? areaOf(index) : String(detail.path) === '/input' ? input : null;
      mark(area, index >= 0 ? errorOf(index) : inputError, said);
      first ??= area;
    }
    const where = details.length > 0 && response.status !== 400 ? ` (${labelOf(String(details[0]!.path))})` : '';
    fail(`${problem.message}${where}`, first, mode);
  }

  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !(event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      addStep();
    }
  });
  add.addEventListener('click', addStep);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send('run');
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send('run');
    }
  });
  const link = h('button', { type: 'button', class: 'secondary copy-link' }, 'Copy link');
  link.addEventListener('click', () => {
    let fragment: string;
    try {
      fragment = recipeFragment(readRecipe());
    } catch {
      // A body that is not JSON yet: the link carries what was last run, if anything.
      fragment = location.hash;
    }
    void copyText(`${location.origin}${location.pathname}${fragment}`).then(() => (link.textContent = 'Link copied'));
  });
  document.getElementById('tool-actions')?.replaceChildren(link);
  holder.replaceChildren(h('div', { class: 'workbench' }, h('div', { class: 'input-side' }, form), h('div', { class: 'output-side' }, placeholder, answer)));

  // A shared link (or "send this answer to…"): the recipe filled and run.
  const shared = recipeFromFragment(location.hash);
  if (shared) {
    for (const step of shared.steps.slice(0, MAX_STEPS)) steps.push({ operation: step.operation, text: step.body ? JSON.stringify(step.body) : '' });
    if (shared.input !== undefined) {
      asJson.checked = typeof shared.input !== 'string';
      input.value = typeof shared.input === 'string' ? shared.input : JSON.stringify(shared.input);
    }
  }
  draw();
  if (shared && shared.steps.length > 0) void send('reopen');
}
