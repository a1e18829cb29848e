/**
 * One recipe step's body on the recipe page: the form the tool's own page has (made from the
 * operation's body schema, its main input left optional, since the step before fills it), or the
 * body as JSON — chosen by the person, and always for a body the form cannot hold (a `$from`
 * pointer to an earlier step's answer) or an operation this service does not have.
 */
import type { RecipeOperation as Operation } from '../recipe-data.js';
import { formOf } from '../shared/fields.js';
import { isRecord, type Json, type Schema } from '../shared/schema.js';
import { freshId, h } from './dom.js';
import { controlOf, FieldError } from './form.js';
import { FieldMarks } from './marks.js';

/** One step as the page holds it across redraws. */
export interface StepState {
  readonly operation: string;
  body: Record<string, Json>;
  /** The body as typed, while it is edited as JSON. */
  text?: string;
}

/** A body the page cannot send yet: the message and the field to mark and focus. */
export class StepProblem extends Error {
  constructor(
    readonly input: HTMLElement | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface StepEditor {
  readonly element: HTMLElement;
  /** True when the body is shown as JSON rather than as the form. */
  readonly json: boolean;
  /** The body as the recipe sends it (members at their default left out); throws a StepProblem. */
  read(): Record<string, Json>;
  /** Marks the field at `pointer` within the body (or the JSON text) with `text`; returns what to focus. */
  mark(pointer: string, text: string): HTMLElement | undefined;
  clear(): void;
  /** The first field, for the focus after adding or moving a step. */
  first(): HTMLElement | null;
}

const holdsPointer = (value: Json): boolean => (Array.isArray(value) ? value.some(holdsPointer) : isRecord(value) && ('$from' in value || Object.values(value).some(holdsPointer)));

/** The operation's body schema with its main input optional: left empty, the step before fills it. */
function stepSchema(operation: Operation): Schema {
  const input = operation.io?.input;
  return { ...operation.body, required: (operation.body.required ?? []).filter((name) => name !== input) };
}

/** `body` without the members the schema would fill in anyway: shorter links, the same run. */
function withoutDefaults(body: Record<string, Json>, schema: Schema): Record<string, Json> {
  return Object.fromEntries(Object.entries(body).filter(([name, value]) => JSON.stringify(schema.properties?.[name]?.default) !== JSON.stringify(value)));
}

function jsonEditor(step: StepState, index: number, changed: () => void): StepEditor {
  const id = freshId('step-body');
  const area = h('textarea', { id, rows: '2', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${id}-error` });
  area.value = step.text ?? (Object.keys(step.body).length > 0 ? JSON.stringify(step.body) : '');
  step.text = area.value;
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  area.addEventListener('input', () => {
    step.text = area.value;
    changed();
  });
  return {
    json: true,
    element: h('div', { class: 'field' }, h('label', { for: id }, `Body of step ${index + 1} (JSON object; may be left empty)`), area, error),
    read() {
      if (area.value.trim() === '') return {};
      let body: unknown;
      try {
        body = JSON.parse(area.value);
      } catch {
        throw new StepProblem(area, 'This body is not JSON: write an object such as {"field": "value"}, or leave it empty.');
      }
      if (!isRecord(body)) throw new StepProblem(area, 'The body must be a JSON object, in braces.');
      step.body = body;
      return body;
    },
    mark(_pointer, text) {
      area.setAttribute('aria-invalid', 'true');
      error.textContent = error.textContent ? `${error.textContent} ${text}` : text;
      error.hidden = false;
      return area;
    },
    clear() {
      area.removeAttribute('aria-invalid');
      error.textContent = '';
      error.hidden = true;
    },
    first: () => area,
  };
}

function formEditor(step: StepState, operation: Operation, changed: () => void): StepEditor {
  const schema = stepSchema(operation);
  const marks = new FieldMarks();
  const control = controlOf(formOf(schema), marks);
  control.write(step.body);
  const read = (): Record<string, Json> => {
    const value = control.read()?.value;
    return withoutDefaults(isRecord(value) ? value : {}, schema);
  };
  const element = h('div', { class: 'step-form' }, control.element);
  const follow = (): void => {
    try {
      step.body = read();
    } catch {
      // JSON typed by hand that does not parse yet: Run marks it.
    }
    changed();
  };
  element.addEventListener('input', follow);
  element.addEventListener('change', follow);
  return {
    element,
    json: false,
    read() {
      try {
        return (step.body = read());
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        const said = `${marks.labelAt(error.pointer)} ${error.message}.`;
        throw new StepProblem(marks.mark(error.pointer, said), said);
      }
    },
    mark: (pointer, text) => marks.mark(pointer, text),
    clear: () => marks.clear(),
    first: () => element.querySelector<HTMLElement>('input:not([type=color]), textarea, select'),
  };
}

/**
 * The editor of `step` (at `index`) and its "Edit as JSON" switch; `changed` is called after every
 * edit, `redraw` when the switch changes how the body is shown.
 */
export function stepEditor(step: StepState, operation: Operation | undefined, index: number, changed: () => void, redraw: () => void): StepEditor {
  const mustBeJson = operation === undefined || holdsPointer(step.body);
  const editor = step.text !== undefined || mustBeJson ? jsonEditor(step, index, changed) : formEditor(step, operation, changed);
  if (mustBeJson) return editor;
  const toggle = h('input', { type: 'checkbox', id: freshId('as-json') });
  toggle.checked = step.text !== undefined;
  toggle.addEventListener('change', () => {
    if (toggle.checked) {
      try {
        step.body = editor.read();
      } catch {
        // The form's last good body is what the JSON starts from.
      }
      step.text = Object.keys(step.body).length > 0 ? JSON.stringify(step.body) : '';
    } else {
      try {
        editor.read();
      } catch (error) {
        toggle.checked = true;
        if (error instanceof StepProblem) editor.mark('', error.message);
        return;
      }
      delete step.text;
    }
    redraw();
  });
  return { ...editor, element: h('div', {}, editor.element, h('div', { class: 'field inline as-json' }, toggle, h('label', { for: toggle.id }, `Edit the body of step ${index + 1} as JSON`))) };
}
