/**
 * The recipe page (/tools/recipes/run): steps chosen from the operations with a search, each
 * step's body in the form its tool's page has (or as JSON; recipe-step.ts), the recipe run with
 * `keep: "all"` so every step's answer is shown, and the recipe and input kept in the address's
 * fragment, which never reaches a server log. A link opens the recipe filled, and it runs when the
 * visitor presses Run (it runs at once only when this tab asked for it: "Send this answer to…",
 * an identify link). An answer is marked the moment the recipe changes after it.
 */
import { viewOf } from '../shared/answers.js';
import { problemOf } from '../shared/problems.js';
import { recipeFragment, recipeFromFragment, type Recipe, type RecipeStep } from '../shared/recipes.js';
import { isRecord, type Json } from '../shared/schema.js';
import { searcher } from '../shared/search.js';
import { answerText, rawJson, render } from './answer.js';
import type { RecipeOperation as Operation, RecipePageData } from '../recipe-data.js';
import { copyButton, copyText, freshId, h } from './dom.js';
import { stepEditor, StepProblem, type StepEditor, type StepState } from './recipe-step.js';
import { staleMark } from './stale.js';
import { takeArmedRun } from './store.js';

/** What the server writes into the page (tool-pages/recipe-data.ts), and the page's own path. */
export interface RecipeData extends RecipePageData {
  readonly path: string;
}

const MAX_STEPS = 32;

/** A body or the input the page cannot send: `index` is the step, or -1 for the input; `input` the field to focus. */
class NotReady extends Error {
  constructor(
    readonly index: number,
    readonly input: HTMLElement | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Sentences about a step: what it does, which field the step before fills, what else it takes. */
function stepHint(operation: Operation | undefined, index: number, json: boolean): string {
  if (!operation) return 'This service has no such operation; running the recipe names the nearest.';
  const input = operation.io?.input;
  const unless = json ? 'unless the body sets it' : 'unless it is filled in below';
  const feeds = input === undefined ? '' : index === 0 ? ` Its ${input} comes from the recipe's input ${unless}.` : ` Its ${input} comes from the step before ${unless}.`;
  const fields = operation.fields.filter((field) => field !== input);
  return `${operation.summary}.${feeds}${json && fields.length > 0 ? ` Other fields: ${fields.join(', ')}.` : ''}`;
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
  const stale = staleMark(answer, output);
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

  const editors: StepEditor[] = [];
  let answeredFor: string | undefined;

  /** Marks the answer when the recipe or its input changed after it ran. */
  const refresh = (): void => {
    if (answer.hidden || answeredFor === undefined) return stale.set(undefined);
    let now: string | undefined;
    try {
      now = JSON.stringify(readRecipe());
    } catch {
      now = undefined;
    }
    stale.set(now === answeredFor ? undefined : 'This answer is for an earlier recipe or input: press Run for the new one.');
    if (now !== answeredFor && status.textContent === 'Done.') status.textContent = '';
  };

  function draw(focus?: { index: number; what: string }): void {
    editors.length = 0;
    list.replaceChildren(
      ...steps.map((step, index) => {
        const operation = byName.get(step.operation);
        const label = operation?.label ?? step.operation;
        const editor = stepEditor(step, operation, index, refresh, () => draw({ index, what: 'body' }));
        editors.push(editor);
        const hintId = freshId('step-hint');
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
            { 'aria-describedby': hintId },
            h('legend', {}, `Step ${index + 1}: ${label}`),
            h('p', { class: 'hint', id: hintId }, stepHint(operation, index, editor.json)),
            editor.element,
            h('div', { class: 'step-actions' }, move(index - 1, 'Move up'), move(index + 1, 'Move down'), move(-1, 'Remove')),
          ),
        );
      }),
    );
    if (steps.length === 0) list.append(h('li', { class: 'hint no-steps' }, 'No steps yet: add one below.'));
    refresh();
    if (focus === undefined) return;
    const item = list.children[focus.index];
    const target = focus.what === 'body' ? editors[focus.index]?.first() : [...(item?.querySelectorAll('button') ?? [])].find((button) => button.textContent === focus.what && !button.disabled);
    (target ?? search).focus();
  }

  const rank = searcher(data.operations.map((operation) => operation.search));
  const byPage = new Map(data.operations.map((operation) => [operation.search.page, operation]));
  function addStep(): void {
    // An operation's name as the list offers it, else the best match of the words, as on the list page ("base64 encode" is base64/encode).
    const found = byName.get(search.value.trim()) ?? byPage.get(rank(search.value)[0]?.page ?? '');
    if (!found) {
      addStatus.textContent = search.value.trim() === '' ? 'Type part of an operation\'s name first.' : 'No operation matches; try another word.';
      return;
    }
    if (steps.length >= MAX_STEPS) {
      addStatus.textContent = `A recipe has at most ${MAX_STEPS} steps.`;
      return;
    }
    steps.push({ operation: found.name, body: found.example ? { ...found.example } : {} });
    search.value = '';
    addStatus.textContent = `Added step ${steps.length}: ${found.label}.`;
    draw();
  }

  const clearMarks = (): void => {
    editors.forEach((editor) => editor.clear());
    inputError.hidden = true;
    inputError.textContent = '';
    input.removeAttribute('aria-invalid');
    status.classList.remove('problem');
  };
  const mark = (area: HTMLElement | null, message: HTMLElement, text: string): HTMLElement | null => {
    area?.setAttribute('aria-invalid', 'true');
    message.textContent = message.textContent ? `${message.textContent} ${text}` : text;
    message.hidden = false;
    return area;
  };
  const fail = (text: string, focus: HTMLElement | null | undefined, mode: 'run' | 'reopen'): void => {
    output.replaceChildren();
    answerActions.replaceChildren();
    answer.hidden = true;
    placeholder.hidden = false;
    stale.set(undefined);
    status.textContent = text;
    status.classList.add('problem');
    if (mode === 'run') focus?.focus();
  };

  /** The recipe as the page holds it; throws the message and the field to mark when a body or the input cannot be sent. */
  function readRecipe(): Recipe {
    const recipeSteps = steps.map((step, index): RecipeStep => {
      let body: Record<string, Json>;
      try {
        body = editors[index]?.read() ?? step.body;
      } catch (error) {
        if (!(error instanceof StepProblem)) throw error;
        throw new NotReady(index, error.input, error.message);
      }
      return Object.keys(body).length === 0 ? { operation: step.operation } : { operation: step.operation, body };
    });
    if (input.value === '') return { steps: recipeSteps };
    if (!asJson.checked) return { input: input.value, steps: recipeSteps };
    try {
      return { input: JSON.parse(input.value) as Json, steps: recipeSteps };
    } catch {
      throw new NotReady(-1, input, 'The input is not JSON: untick "Read the input as JSON" to send it as text.');
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
      if (!(error instanceof NotReady)) throw error;
      const { index, message } = error;
      if (index < 0) mark(input, inputError, message);
      else editors[index]?.mark('', message);
      return fail(`Check the marked field: ${message}`, error.input, mode);
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
      answeredFor = JSON.stringify(recipe);
      showAnswers(recipe, json);
      return refresh();
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
      const step = /^\/steps\/(\d+)(?:\/body)?(.*)$/.exec(String(detail.path));
      const said = problem.fields.find((field) => field.pointer === detail.path)?.message ?? String(detail.message ?? problem.message);
      let marked: HTMLElement | null | undefined = null;
      if (step) marked = editors[Number(step[1])]?.mark(step[2] ?? '', said);
      else if (String(detail.path) === '/input') marked = mark(input, inputError, said);
      else mark(null, inputError, said);
      first ??= marked ?? null;
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
  input.addEventListener('input', () => refresh());
  asJson.addEventListener('change', () => refresh());
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

  /** Fills the page from the address's recipe; runs it only when this tab asked for that run (else the visitor's Run does). */
  const openLink = (armed: string | undefined): void => {
    const shared = recipeFromFragment(location.hash);
    if (!shared) return;
    steps.length = 0;
    for (const step of shared.steps.slice(0, MAX_STEPS)) steps.push({ operation: step.operation, body: step.body ? { ...step.body } : {} });
    asJson.checked = shared.input !== undefined && typeof shared.input !== 'string';
    input.value = shared.input === undefined ? '' : typeof shared.input === 'string' ? shared.input : JSON.stringify(shared.input);
    clearMarks();
    draw();
    const asked = armed !== undefined && JSON.stringify(recipeFromFragment(armed)) === JSON.stringify(shared);
    if (asked && shared.steps.length > 0) return void send('reopen');
    status.textContent = shared.steps.length > 0 ? 'Filled from the link: check the steps, then press Run to run it.' : '';
  };
  window.addEventListener('hashchange', () => openLink(undefined));
  draw();
  openLink(takeArmedRun());
}
