/**
 * The pages' one script: the list page's search, and on a tool page the form built from the
 * operation's body schema, its examples, the request and the answer. It never asks for an API key:
 * requests go out anonymous, under the anonymous limit.
 */
import { problemOf, viewOf } from '../shared/answers.js';
import { formOf } from '../shared/fields.js';
import type { Json, Schema } from '../shared/schema.js';
import { render } from './answer.js';
import { copyButton, h } from './dom.js';
import { controlOf, FieldError, FieldMarks, filesRead } from './form.js';

interface ToolData {
  readonly path: string;
  readonly body: Schema;
  readonly response: Schema;
  readonly examples: readonly { title: string; body: Json }[];
}

function search(input: HTMLInputElement): void {
  const status = document.getElementById('search-status')!;
  const items = [...document.querySelectorAll<HTMLLIElement>('li[data-search]')];
  const filter = (): void => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of items) {
      const text = item.dataset.search ?? '';
      item.hidden = !words.every((word) => text.includes(word));
      if (!item.hidden) shown++;
    }
    for (const group of document.querySelectorAll<HTMLElement>('section.group')) group.hidden = group.querySelector('li:not([hidden])') === null;
    status.textContent = words.length === 0 ? '' : shown === 0 ? 'No tool matches.' : `${shown} tool${shown === 1 ? '' : 's'} match.`;
  };
  input.addEventListener('input', filter);
  filter();
}

function toolPage(holder: HTMLElement, tool: ToolData): void {
  const marks = new FieldMarks();
  const control = controlOf(formOf(tool.body), marks);
  const fileName = tool.path.split('/').slice(2).join('-');
  const status = h('p', { class: 'status', role: 'status' });
  const answer = h('section', { class: 'answer', 'aria-labelledby': 'answer-heading', hidden: true }, h('h2', { id: 'answer-heading' }, 'Answer'));
  const output = h('div', {});
  answer.append(output);
  const run = h('button', { type: 'submit', class: 'primary' }, 'Run');
  const form = h('form', { novalidate: true, 'aria-label': 'Request' }, control.element, h('div', { class: 'actions' }, run, status));
  const examples = tool.examples.map((example) => {
    const button = h('button', { type: 'button', class: 'secondary example' }, example.title);
    button.addEventListener('click', () => {
      marks.clear();
      control.write(example.body);
      status.textContent = `Example loaded: ${example.title}`;
    });
    return button;
  });
  const exampleBar = examples.length > 0 ? h('div', { class: 'examples', role: 'group', 'aria-label': 'Examples' }, h('span', { class: 'examples-label' }, 'Examples:'), ...examples) : null;
  control.write(undefined);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });
  async function send(): Promise<void> {
    marks.clear();
    status.classList.remove('problem');
    run.disabled = true;
    status.textContent = 'Running…';
    try {
      await filesRead();
      const body = control.read()?.value ?? {};
      const response = await fetch(tool.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await response.json().catch(() => undefined)) as Json | undefined;
      if (response.ok) {
        status.textContent = 'Done.';
        output.replaceChildren(render(viewOf(tool.response, json), 'Answer', { fileName }), rawJson(json));
        answer.hidden = false;
        return;
      }
      const problem = problemOf(response.status, json, response.headers.get('Retry-After'));
      const first = problem.fields.map((field) => marks.mark(field.pointer, field.message)).find(Boolean);
      status.textContent = problem.message;
      status.classList.add('problem');
      first?.focus();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      marks.mark(error.pointer, error.message)?.focus();
      status.textContent = `Check the marked field: ${error.message}`;
    } finally {
      run.disabled = false;
    }
  }
  holder.replaceChildren(...[exampleBar, form, answer].filter((node): node is HTMLElement => node !== null));
}

function rawJson(value: Json | undefined): HTMLElement {
  const text = JSON.stringify(value, null, 2);
  return h('details', { class: 'raw' }, h('summary', {}, 'The answer as JSON'), h('div', { class: 'code' }, h('pre', { tabindex: '0', 'aria-label': 'The answer as JSON' }, h('code', {}, text)), copyButton(() => text, 'the answer as JSON')));
}

const searchBox = document.getElementById('search');
if (searchBox instanceof HTMLInputElement) search(searchBox);
const data = document.getElementById('tool-data');
const holder = document.getElementById('tool');
if (data && holder) toolPage(holder, JSON.parse(data.textContent ?? '{}') as ToolData);
