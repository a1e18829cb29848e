/**
 * A tool page: the form built from the operation's body schema, its examples, and the run — on
 * Run or Ctrl+Enter everywhere, and as the person types for operations the catalog marks `live`.
 * Live answers spend little (tool-pages/shared/pacing.ts): they wait for a pause, reuse the answer
 * to any input already answered (the last 32, a minute at most for a clock-reading operation), never
 * send what the body schema refuses (shared/check.ts), and wait while few requests are left. An
 * answer that no longer belongs to the input is marked so at once (stale.ts). A failed run clears
 * the old answer and marks the field it is about. The filled form goes into the address and this
 * browser's storage; a link opened in the tab fills the form again (hashchange).
 */
import { firstTimeAfter, viewOf } from '../shared/answers.js';
import { checkValue } from '../shared/check.js';
import { formOf, mainField, namedField } from '../shared/fields.js';
import { pauseBefore } from '../shared/pacing.js';
import { plainMessage, problemOf, type Problem } from '../shared/problems.js';
import type { Io } from '../shared/recipes.js';
import { isRecord, type Json, type Schema } from '../shared/schema.js';
import { answerText, highlighted, isLoneValue, matchesIn, rawJson, render } from './answer.js';
import { BudgetLine } from './budget.js';
import { copyButton, h } from './dom.js';
import { controlOf, FieldError, filesRead } from './form.js';
import { FieldMarks } from './marks.js';
import { sendControl, type SendTarget } from './send-to.js';
import { staleMark } from './stale.js';
import { forgetInput, inputFromAddress, keepInput, lastInput, showInAddress } from './store.js';
import { toolActions } from './tool-actions.js';

export interface ToolData {
  readonly path: string;
  readonly page: string;
  /** `group/operation`. */
  readonly name: string;
  readonly title: string;
  readonly live: boolean;
  /** The answer changes with the clock (and only with it): reused for a minute at most, and out of date once a time it lists has passed. */
  readonly clock?: boolean;
  readonly body: Schema;
  readonly response: Schema;
  readonly examples: readonly { title: string; body: Json }[];
  readonly io?: Io;
  /** What "send this answer to…" offers: operations whose main input takes this one's main output. */
  readonly next: readonly SendTarget[];
  /** identify's path, when this service has it: "send this answer to…" asks it which tools come first. */
  readonly identify?: string;
}

/** Longer inputs stay out of the address (a dropped file): too long to share as a link. */
const MAX_ADDRESS_INPUT = 8000;
/** How many answers a page keeps, by input, so that typing back to an earlier input asks nothing; larger inputs (a dropped file) are not kept. */
const KEPT_ANSWERS = 32;
const MAX_KEPT_INPUT = 100_000;
/** How long a clock-reading operation's answer may be reused. */
const CLOCK_REUSE_MS = 60_000;

type Mode = 'run' | 'live' | 'reopen';

/** A request's outcome, kept by input: its status, its JSON, and when it stops being current (a clock answer's next listed time). */
interface Outcome {
  readonly status: number;
  readonly json: Json | undefined;
  readonly retryAfter: string | null;
  readonly at: number;
  readonly due?: number;
}

export function toolPage(holder: HTMLElement, tool: ToolData): void {
  const marks = new FieldMarks();
  const form = formOf(tool.body);
  const control = controlOf(form, marks);
  const main = mainField(form);
  const fileName = tool.path.split('/').slice(2).join('-');
  const status = h('p', { class: 'status', role: 'status' });
  const budgetLine = new BudgetLine(tool.live);
  const answerActions = h('div', { class: 'answer-actions' });
  const output = h('div', { class: 'answer-body' });
  const answer = h('section', { class: 'answer', 'aria-labelledby': 'answer-heading', hidden: true }, h('div', { class: 'answer-head' }, h('h2', { id: 'answer-heading' }, 'Answer'), answerActions), output);
  const stale = staleMark(answer, output);
  const placeholder = h('p', { class: 'answer-placeholder' }, tool.live ? 'The answer appears here as you type.' : 'The answer appears here after Run.');
  const run = h('button', { type: 'submit', class: 'primary' }, 'Run');
  const clear = h('button', { type: 'button', class: 'secondary clear' }, 'Clear');
  const keys = h('span', { class: 'keys' }, tool.live ? 'Answers when you pause typing. ' : '', h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'), ' runs from any field.');
  const formElement = h('form', { novalidate: true, 'aria-label': 'Request' }, control.element, h('div', { class: 'actions' }, run, clear, status), h('p', { class: 'hint keys-line' }, keys), budgetLine.element);
  const kept = new Map<string, Outcome>();
  const liveSent: number[] = [];
  let generation = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let dueTimer: ReturnType<typeof setTimeout> | undefined;
  let keyRequired = false;
  /** The input (as sent) that the answer or problem shown belongs to; `passed` once a time the answer lists is past. */
  let shown: { text: string; passed: boolean } | undefined;
  /** True from a restored input until the first edit: a paste then replaces the restored text. */
  let restored = false;

  const current = (): { body: Json; text: string } | undefined => {
    try {
      const body = control.read()?.value ?? {};
      return { body, text: JSON.stringify(body) };
    } catch {
      return undefined;
    }
  };
  const reuse = (text: string): Outcome | undefined => {
    const outcome = kept.get(text);
    const now = Date.now();
    if (outcome && (now >= (outcome.due ?? Infinity) || (tool.clock && now - outcome.at > CLOCK_REUSE_MS))) kept.delete(text);
    return kept.get(text);
  };
  const keep = (text: string, outcome: Outcome): void => {
    if (text.length > MAX_KEPT_INPUT) return;
    kept.delete(text);
    kept.set(text, outcome);
    if (kept.size > KEPT_ANSWERS) kept.delete(kept.keys().next().value!);
  };
  const livePaused = (): boolean => keyRequired || budgetLine.low();

  /** Marks the answer when it is not the current input's (or a time it lists has passed), and says what brings the new one. */
  const refresh = (): void => {
    if (answer.hidden || shown === undefined) return stale.set(undefined);
    const now = current();
    if (now?.text === shown.text) return stale.set(shown.passed ? 'A time in this answer has passed: press Run for an answer from now.' : undefined);
    const next = !tool.live ? 'press Run for the new input' : livePaused() ? 'live answers are paused to keep this address\'s last requests, so press Run for the new input' : 'the new one follows when you pause typing (or press Run)';
    stale.set(`This answer is for an earlier input: ${next}.`);
    if (status.textContent === 'Done.') status.textContent = '';
  };

  const clearAnswer = (): void => {
    output.replaceChildren();
    answerActions.replaceChildren();
    answer.hidden = true;
    placeholder.hidden = false;
    stale.set(undefined);
  };
  const showAnswer = (body: Json, json: Json | undefined): void => {
    const view = viewOf(tool.response, json);
    const found = matchesIn(body, json);
    output.replaceChildren(...(found ? [highlighted(found.text, found.matches)] : []), h('div', { class: 'view' }, render(view, 'Answer', { fileName }, { copy: !isLoneValue(view) })), rawJson(json));
    answerActions.replaceChildren(copyButton(() => answerText(view), 'the answer'), sendControl({ operation: tool.name, io: tool.io, next: tool.next ?? [], body, answer: json, identify: tool.identify }) ?? '');
    answer.hidden = false;
    placeholder.hidden = true;
  };
  const showProblem = (problem: Problem, mode: Mode, status422: boolean): void => {
    clearAnswer();
    let first = problem.fields.map((field) => marks.mark(field.pointer, field.message)).find(Boolean);
    // A 422 is about the input as a whole: the field its message names carries it, else the main field.
    const about = status422 ? (namedField(form, problem.message) ?? main) : undefined;
    if (about && !first) first = marks.mark(about.pointer, problem.message.replace(/^The tool cannot process this input: /, ''));
    status.textContent = problem.message;
    status.classList.add('problem');
    if (mode === 'run') first?.focus();
  };

  /** Shows what a request (or the answer kept for this input) said. */
  const present = (body: Json, text: string, outcome: Outcome, mode: Mode): void => {
    marks.clear();
    status.classList.remove('problem');
    clearTimeout(dueTimer);
    shown = { text, passed: false };
    if (outcome.status >= 200 && outcome.status < 300) {
      status.textContent = 'Done.';
      showAnswer(body, outcome.json);
      keepInput(tool.page, body);
      if (text.length <= MAX_ADDRESS_INPUT) showInAddress(body);
      if (outcome.due !== undefined) {
        dueTimer = setTimeout(() => {
          if (shown?.text === text) shown.passed = true;
          refresh();
        }, Math.min(outcome.due - Date.now(), 2 ** 31 - 1));
      }
    } else {
      if (outcome.status === 401) keyRequired = true;
      showProblem(problemOf(outcome.status, outcome.json, outcome.retryAfter, (pointer) => marks.labelAt(pointer)), mode, outcome.status === 422);
    }
    refresh();
  };

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
    if (mode === 'live') liveSent.push(Date.now());
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
      return showProblem({ message: 'The service could not be reached: check the connection and try again.', fields: [] }, mode, false);
    }
    const json = (await response.json().catch(() => undefined)) as Json | undefined;
    budgetLine.note(response.headers);
    const at = Date.now();
    const due = tool.clock && response.ok ? firstTimeAfter(json, at) : undefined;
    const outcome: Outcome = { status: response.status, json, retryAfter: response.headers.get('Retry-After'), at, ...(due !== undefined ? { due } : {}) };
    // The same input gets the same answer (or refusal); a busy or unreachable service's may change.
    if (response.ok || response.status === 400 || response.status === 422) keep(text, outcome);
    if (mine !== generation) return; // A newer answer is the one shown.
    run.removeAttribute('aria-busy');
    present(body, text, outcome, mode);
  }

  /** A live answer for the current input, once typing has paused: from those kept, or asked for unless live answers are paused. */
  async function answerLive(): Promise<void> {
    const now = current();
    if (now === undefined || now.text === shown?.text) return;
    const known = reuse(now.text);
    if (known) {
      ++generation;
      run.removeAttribute('aria-busy');
      return present(now.body, now.text, known, 'live');
    }
    if (livePaused()) return refresh();
    await send('live');
  }

  /** After every edit: the answer marked if it is now an older input's, and a live answer asked for once typing pauses. */
  const edited = (): void => {
    restored = false;
    refresh();
    if (!tool.live) return;
    clearTimeout(pending);
    const now = current();
    if (now === undefined) return;
    if (reuse(now.text)) return void answerLive();
    const problem = checkValue(tool.body, now.body)[0];
    const mainValue = main && isRecord(now.body) ? now.body[main.pointer.slice(1)] : undefined;
    // Nothing to ask for yet: an empty main field, or a value the service would refuse (said quietly; Run sends it anyway).
    if (problem || (main?.required && (mainValue === undefined || mainValue === ''))) {
      if (!status.classList.contains('problem')) status.textContent = problem && !(main && problem.path === main.pointer && mainValue === '') ? `Not sent yet: ${plainMessage(marks.labelAt(problem.path), problem.message)}` : '';
      return;
    }
    pending = setTimeout(() => void answerLive(), pauseBefore(liveSent, Date.now(), budgetLine.windowMs, budgetLine.limit));
  };
  formElement.addEventListener('input', edited);
  formElement.addEventListener('change', edited);
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
  // A paste into a field still holding the restored input replaces it, rather than joining the old text.
  formElement.addEventListener('paste', (event) => {
    const field = event.target;
    const text = event.clipboardData?.getData('text/plain');
    if (!restored || !text || !(field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && field.type === 'text'))) return;
    if (field.value === '' || field.selectionStart !== field.selectionEnd) return;
    event.preventDefault();
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });

  const firstField = (): HTMLElement | null => formElement.querySelector<HTMLElement>('input:not([type=color]), textarea, select');
  /** Fills the form from a link: answered at once where the page answers live anyway, else on the visitor's Run. */
  const openLink = (input: Json): void => {
    marks.clear();
    control.write(input);
    restored = false;
    if (tool.live && !livePaused()) void answerLive();
    else {
      status.classList.remove('problem');
      status.textContent = 'Filled from the link: press Run for its answer.';
      refresh();
    }
  };
  clear.addEventListener('click', () => {
    clearTimeout(pending);
    ++generation;
    run.removeAttribute('aria-busy');
    marks.clear();
    control.write(undefined);
    clearAnswer();
    shown = undefined;
    forgetInput(tool.page);
    history.replaceState(null, '', location.pathname);
    status.classList.remove('problem');
    status.textContent = 'Cleared: this browser no longer keeps an input for this tool.';
    firstField()?.focus();
  });
  window.addEventListener('hashchange', () => {
    const input = inputFromAddress();
    if (input !== undefined) openLink(input);
  });

  const examples = tool.examples.map((example) => {
    const button = h('button', { type: 'button', class: 'secondary example' }, example.title);
    button.addEventListener('click', () => {
      marks.clear();
      control.write(example.body);
      status.classList.remove('problem');
      status.textContent = `Example loaded: ${example.title}`;
      edited();
    });
    return button;
  });
  const exampleBar = examples.length > 0 ? h('div', { class: 'examples', role: 'group', 'aria-label': 'Examples' }, h('span', { class: 'examples-label' }, 'Examples:'), ...examples) : null;
  const inputSide = h('div', { class: 'input-side' }, ...(exampleBar ? [exampleBar] : []), formElement);
  holder.replaceChildren(h('div', { class: 'workbench' }, inputSide, h('div', { class: 'output-side' }, placeholder, answer)));
  toolActions(tool, () => current()?.body);

  // The address's input first (a shared link), else this browser's last input; the first field has the focus, its text selected.
  const shared = inputFromAddress();
  const last = shared === undefined ? lastInput(tool.page) : undefined;
  if (shared !== undefined) openLink(shared);
  else {
    control.write(last);
    // Back, not answered: the visitor may have come for a new input, and an answer would spend a request on the old one.
    if (last !== undefined) {
      status.textContent = 'Your last input is back; pasting into a field replaces it.';
      restored = true;
    }
  }
  const first = firstField();
  first?.focus();
  if ((first instanceof HTMLInputElement && first.type === 'text') || first instanceof HTMLTextAreaElement) first.select();
}
