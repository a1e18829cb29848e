/**
 * The list page's "What is this?" box: the pasted input goes to identify, and each candidate is
 * said in words (what it is, how sure) with a link that opens its tool filled in, or the recipe
 * page with the recipe and input when it takes several steps. Nothing runs until the person asks.
 */
import { problemOf } from '../shared/problems.js';
import { candidateLink, confidenceWords, type LinkTarget, type RecipeStep } from '../shared/recipes.js';
import { isRecord, type Json } from '../shared/schema.js';
import { h } from './dom.js';
import { armRun } from './store.js';

interface Candidate {
  readonly title: string;
  readonly confidence: number;
  readonly recipe: { readonly steps: readonly RecipeStep[] };
  readonly preview?: Json;
  /** Why no tool reads it, for a kind named with no steps. */
  readonly note?: string;
}

const isCandidate = (value: unknown): value is Candidate =>
  isRecord(value) && typeof value.title === 'string' && typeof value.confidence === 'number' && isRecord(value.recipe) && Array.isArray(value.recipe.steps);

/** A short line of what the candidate's recipe answers, so the person sees it before opening it. */
function previewLine(preview: Json | undefined): string {
  const text = typeof preview === 'string' ? preview : JSON.stringify(preview);
  if (text === undefined) return '';
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function candidateItem(candidate: Candidate, input: string, targets: Readonly<Record<string, LinkTarget>>): HTMLLIElement {
  const steps = candidate.recipe.steps;
  const title = h('p', { class: 'candidate-title' }, h('strong', {}, candidate.title), ' ', h('span', { class: 'confidence' }, confidenceWords(candidate.confidence)));
  // A kind no tool here reads (an IPv6 address): named, with identify's note, and nothing to open.
  if (steps.length === 0) return h('li', { class: 'candidate' }, title, h('p', { class: 'preview' }, candidate.note ?? 'No tool here reads it.'));
  const href = candidateLink(steps, input, targets);
  const opens = steps.length === 1 ? 'Open the tool with this input' : `Open the ${steps.length}-step recipe with this input`;
  const preview = previewLine(candidate.preview);
  const link = h('a', { href, 'aria-label': `${opens}: ${candidate.title}` }, opens);
  // The visitor's own input, opened by their click: the recipe page runs it at once.
  if (href.startsWith('/tools/recipes/run#')) link.addEventListener('click', () => armRun(href.slice(href.indexOf('#'))));
  return h(
    'li',
    { class: 'candidate' },
    title,
    preview ? h('p', { class: 'preview' }, h('span', { class: 'preview-label' }, 'Gives: '), h('code', {}, preview)) : null,
    link,
  );
}

export function identifyBox(form: HTMLFormElement): void {
  const input = form.querySelector('textarea')!;
  const status = document.getElementById('identify-status')!;
  const results = document.getElementById('identify-results')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  let targets: Record<string, LinkTarget> = {};
  try {
    targets = JSON.parse(form.dataset.targets ?? '{}') as Record<string, LinkTarget>;
  } catch {
    // Without the map every candidate opens on the recipe page, which takes any recipe.
  }
  let generation = 0;

  async function identify(): Promise<void> {
    const text = input.value;
    results.replaceChildren();
    results.hidden = true;
    status.classList.remove('problem');
    if (text.trim() === '') {
      status.textContent = 'Paste something first.';
      return;
    }
    const mine = ++generation;
    button.setAttribute('aria-busy', 'true');
    status.textContent = 'Looking…';
    let response: Response;
    try {
      response = await fetch(form.dataset.path ?? '/v1/recipes/identify', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ input: text }) });
    } catch {
      if (mine !== generation) return;
      button.removeAttribute('aria-busy');
      status.textContent = 'The service could not be reached: check the connection and try again.';
      status.classList.add('problem');
      return;
    }
    const json = (await response.json().catch(() => undefined)) as unknown;
    if (mine !== generation) return;
    button.removeAttribute('aria-busy');
    if (!response.ok) {
      status.textContent = problemOf(response.status, json, response.headers.get('Retry-After'), () => 'The input').message;
      status.classList.add('problem');
      return;
    }
    const listed: unknown[] = isRecord(json) && Array.isArray(json.candidates) ? json.candidates : [];
    const candidates = listed.filter(isCandidate);
    // Plain prose gets candidates below 0.5 at most: they are not worth a link.
    const likely = candidates.filter((candidate) => candidate.confidence > 0.5);
    if (likely.length === 0) {
      status.textContent = 'Not recognised: no tool here reads this input as it is. Search the tools below instead.';
      return;
    }
    status.textContent = likely.length === 1 ? 'One match.' : `${likely.length} matches, the likeliest first.`;
    results.replaceChildren(...likely.map((candidate) => candidateItem(candidate, text, targets)));
    results.hidden = false;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void identify();
  });
  // Enter alone adds a line (a pasted value may have several); Ctrl+Enter asks, as on every tool page.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void identify();
    }
  });
  input.addEventListener('paste', () => setTimeout(() => void identify(), 0));
}
