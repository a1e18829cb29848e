/**
 * A tool page: the form built from the operation's body schema, its examples, and the run — on
 * Run or Ctrl+Enter everywhere, and as the person types for operations the catalog marks `live`.
 * Live answers spend no more than typing would: they wait for a pause, skip an unchanged or
 * incomplete input, and stop while few requests are left for this address (RateLimit-Remaining).
 * A failed run clears the old answer and marks the field it is about. The filled form goes into
 * the address and this browser's storage. The answer's actions sit in one row: its Copy button and
 * "send this answer to…" (send-to.ts), which starts a recipe from this run.
 */
import { viewOf } from '../shared/answers.js';
import { formOf, mainField } from '../shared/fields.js';
import { problemOf, type Problem } from '../shared/problems.js';
import type { Io } from '../shared/recipes.js';
import { isRecord, type Json, type Schema } from '../shared/schema.js';
import { answerText, highlighted, render } from './answer.js';
import { copyButton, copyText, h } from './dom.js';
import { controlOf, FieldError, filesRead } from './form.js';
import { FieldMarks } from './marks.js';
import { sendControl, type SendTarget } from './send-to.js';
import { addressWith, inputFromAddress, isFavourite, keepInput, lastInput, noteRecent, setFavourite, showInAddress } from './store.js';

export interface ToolData {
  readonly path: string;
  readonly page: string;
  /** `group/operation`. */
  readonly name: string;
  readonly title: string;
  readonly live: boolean;
  readonly body: Schema;
  readonly response: Schema;
  readonly examples: readonly { title: string; body: Json }[];
  readonly io?: Io;
  /** What "send this answer to…" offers: operations whose main input takes this one's main output. */
  readonly next: readonly SendTarget[];
}

/** How long typing must pause before a live answer is asked for. */
const LIVE_PAUSE_MS = 400;
/** Live answers stop while this few requests or fewer are left, so Run still works. */
const LIVE_RESERVE = 5;
/** Longer inputs stay out of the address (a dropped file): too long to share as a link. */
const MAX_ADDRESS_INPUT = 8000;

type Mode = 'run' | 'live' | 'reopen';

/** RateLimit-* of the last answer: what is left for this address, and when the count starts again. */
interface Budget {
  remaining: number;
  limit: number;
  resetAt: number;
}

function rawJson(value: Json | undefined): HTMLElement {
  const text = JSON.stringify(value, null, 2);
  return h('details', { class: 'raw' }, h('summary', {}, 'The answer as JSON'), h('div', { class: 'code' }, h('pre', { tabindex: '0', 'aria-label': 'The answer as JSON' }, h('code', {}, text)), copyButton(() => text, 'the answer as JSON')));
}

/** The matches of a pattern in the request's `text`, when the answer lists them with offsets. */
function matchesIn(body: Json, answer: Json | undefined): { text: string; matches: { index: number; end: number }[] } | undefined {
  if (!isRecord(body) || typeof body.text !== 'string' || !isRecord(answer) || !Array.isArray(answer.matches)) return undefined;
  const matches = answer.matches.filter(isRecord);
  if (matches.length === 0 || !matches.every((match) => typeof match.index === 'number' && typeof match.end === 'number')) return undefined;
  return { text: body.text, matches: matches as unknown as { index: number; end: number }[] };
}

function toolActions(tool: ToolData, currentBody: () => Json | undefined): void {
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
    const text = body !== undefined && JSON.stringify(body).length <= MAX_ADDRESS_INPUT ? addressWith(body) : location.origin + location.pathname;
    void copyText(text).then(() => (link.textContent = 'Link copied'));
  });
  holder.replaceChildren(star, link);
  noteRecent(kept);
}

export function toolPage(holder: HTMLElement, tool: ToolData): void {
  const marks = new FieldMarks();
  const form = formOf(tool.body);
  const control = controlOf(form, marks);
  const main = mainField(form);
  const fileName = tool.path.split('/').slice(2).join('-');
  const status = h('p', { class: 'status', role: 'status' });
  const budgetLine = h('p', { class: 'budget', hidden: true });
  const answerActions = h('div', { class: 'answer-actions' });
  const output = h('div', { class: 'answer-body' });
  const answer = h('section', { class: 'answer', 'aria-labelledby': 'answer-heading', hidden: true }, h('div', { class: 'answer-head' }, h('h2', { id: 'answer-heading' }, 'Answer'), answerActions), output);
  const placeholder = h('p', { class: 'answer-placeholder' }, tool.live ? 'The answer appears here as you type.' : 'The answer appears here after Run.');
  const run = h('button', { type: 'submit', class: 'primary' }, 'Run');
  const keys = h('span', { class: 'keys' }, tool.live ? 'Answers as you type. ' : '', h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'), ' runs from any field.');
  const formElement = h('form', { novalidate: true, 'aria-label': 'Request' }, control.element, h('div', { class: 'actions' }, run, status), h('p', { class: 'hint keys-line' }, keys), budgetLine);
  let budget: Budget | undefined;
  let generation = 0;
  let lastSent: string | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let keyRequired = false;

  const readBody = (): Json | undefined => {
    try {
      return control.read()?.value ?? {};
    } catch {
      return undefined;
    }
  };
  const clearAnswer = (): void => {
    output.replaceChildren();
    answerActions.replaceChildren();
    answer.hidden = true;
    placeholder.hidden = false;
  };
  const showAnswer = (body: Json, json: Json | undefined): void => {
    const view = viewOf(tool.response, json);
    const found = matchesIn(body, json);
    output.replaceChildren(...(found ? [highlighted(found.text, found.matches)] : []), h('div', { class: 'view' }, render(view, 'Answer', { fileName })), rawJson(json));
    answerActions.replaceChildren(copyButton(() => answerText(view), 'the answer'), sendControl(tool.name, tool.io, tool.next ?? [], body) ?? '');
    answer.hidden = false;
    placeholder.hidden = true;
  };
  const showProblem = (problem: Problem, mode: Mode, status422: boolean): void => {
    clearAnswer();
    let first = problem.fields.map((field) => marks.mark(field.pointer, field.message)).find(Boolean);
    // A 422 is about the input as a whole: the main field carries it.
    if (status422 && main && !first) first = marks.mark(main.pointer, problem.message.replace(/^The tool cannot process this input: /, ''));
    status.textContent = problem.message;
    status.classList.add('problem');
    if (mode === 'run') first?.focus();
  };
  const noteBudget = (headers: Headers): void => {
    const remaining = Number(headers.get('RateLimit-Remaining'));
    const limit = Number(headers.get('RateLimit-Limit'));
    const given = Number(headers.get('RateLimit-Reset'));
    const reset = Number.isFinite(given) && given > 0 ? given : 60;
    if (!headers.has('RateLimit-Remaining') || !Number.isFinite(remaining) || !Number.isFinite(limit)) return;
    budget = { remaining, limit, resetAt: Date.now() + reset * 1000 };
    budgetLine.hidden = false;
    budgetLine.classList.toggle('low', remaining <= Math.max(LIVE_RESERVE, limit / 4));
    const paused = tool.live && remaining <= LIVE_RESERVE ? ' Live answers pause until the count starts again; Run still works.' : '';
    budgetLine.textContent = `${remaining} of ${limit} requests left for this address; the count starts again in ${Math.max(1, Math.ceil(reset))} s.${paused}`;
  };
  /** True while live answers must wait: few requests left, or the server wants a key. */
  const livePaused = (): boolean => keyRequired || (budget !== undefined && budget.remaining <= LIVE_RESERVE && Date.now() < budget.resetAt);

  async function send(mode: Mode): Promise<void> {
    clearTimeout(pending);
    let body: Json;
    try {
      await filesRead();
      body = control.read()?.value ?? {};
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      marks.clear();
      clearAnswer();
      const said = `${marks.labelAt(error.pointer)} ${error.message}.`;
      const input = marks.mark(error.pointer, said);
      status.textContent = `Check the marked field: ${said}`;
      status.classList.add('problem');
      if (mode === 'run') input?.focus();
      return;
    }
    const text = JSON.stringify(body);
    if (mode === 'live') {
      const mainValue = main && isRecord(body) ? body[main.pointer.slice(1)] : undefined;
      if (text === lastSent || livePaused() || (main?.required && (mainValue === undefined || mainValue === ''))) return;
    }
    lastSent = text;
    const mine = ++generation;
    run.setAttribute('aria-busy', 'true');
    status.classList.remove('problem');
    status.textContent = 'Running…';
    let response: Response;
    try {
      response = await fetch(tool.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
    } catch {
      if (mine !== generation) return;
      run.removeAttribute('aria-busy');
      lastSent = undefined;
      return showProblem({ message: 'The service could not be reached: check the connection and try again.', fields: [] }, mode, false);
    }
    const json = (await response.json().catch(() => undefined)) as Json | undefined;
    noteBudget(response.headers);
    if (mine !== generation) return; // A newer run's answer is the one shown.
    run.removeAttribute('aria-busy');
    marks.clear();
    if (response.ok) {
      status.textContent = 'Done.';
      showAnswer(body, json);
      keepInput(tool.page, body);
      if (text.length <= MAX_ADDRESS_INPUT) showInAddress(body);
      return;
    }
    if (response.status === 401) keyRequired = true;
    // A refused input may be sent again once changed back; a busy server's answer may be retried.
    if (response.status >= 429) lastSent = undefined;
    showProblem(problemOf(response.status, json, response.headers.get('Retry-After'), (pointer) => marks.labelAt(pointer)), mode, response.status === 422);
  }

  const schedule = (): void => {
    if (!tool.live) return;
    clearTimeout(pending);
    pending = setTimeout(() => void send('live'), LIVE_PAUSE_MS);
  };
  formElement.addEventListener('input', schedule);
  formElement.addEventListener('change', schedule);
  formElement.addEventListener('submit', (event) => {
    event.preventDefault();
    void send('run');
  });
  // Ctrl+Enter (⌘+Enter on a Mac) runs from any field, text areas included; the focus stays put.
  formElement.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send('run');
    }
  });

  const examples = tool.examples.map((example) => {
    const button = h('button', { type: 'button', class: 'secondary example' }, example.title);
    button.addEventListener('click', () => {
      marks.clear();
      control.write(example.body);
      status.classList.remove('problem');
      status.textContent = `Example loaded: ${example.title}`;
      schedule();
    });
    return button;
  });
  const exampleBar = examples.length > 0 ? h('div', { class: 'examples', role: 'group', 'aria-label': 'Examples' }, h('span', { class: 'examples-label' }, 'Examples:'), ...examples) : null;
  const inputSide = h('div', { class: 'input-side' }, ...(exampleBar ? [exampleBar] : []), formElement);
  holder.replaceChildren(h('div', { class: 'workbench' }, inputSide, h('div', { class: 'output-side' }, placeholder, answer)));
  toolActions(tool, readBody);

  // The address's input first (a shared link: filled and answered), else this browser's last input.
  const shared = inputFromAddress();
  const kept = shared === undefined ? lastInput(tool.page) : undefined;
  control.write(shared ?? kept);
  if (shared !== undefined) void send('reopen');
  else if (kept !== undefined) {
    status.textContent = 'Your last input is back.';
    schedule();
  }
}
