/** A Field (tool-pages/shared/fields.ts) → the controls that ask for it and read it back as JSON. */
import type { Field } from '../shared/fields.js';
import { checkValue } from '../shared/check.js';
import { plainHint } from '../shared/problems.js';
import { roughlyMatches, type Json } from '../shared/schema.js';
import { colorPicker } from './color.js';
import { freshId, h } from './dom.js';
import type { FieldMarks } from './marks.js';

/** What a control holds: a value, or nothing (the member is left out of the body). */
export type Read = { value: Json } | undefined;

export interface Control {
  readonly element: HTMLElement;
  read(): Read;
  /** Shows `value`; undefined shows the default (or nothing). */
  write(value: Json | undefined): void;
}

/** A value the page itself refuses before sending (JSON typed by hand that does not parse). */
export class FieldError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Files still being read: the form waits for them before it sends. */
const reading = new Set<Promise<void>>();
export const filesRead = (): Promise<unknown> => Promise.all([...reading]);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The reader's IANA time zone, as the browser names it. */
export const readerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Manifest text: sentences end with a stop; `backticks` are code. */
export function prose(text: string): (Node | string)[] {
  return text.split(/`([^`]+)`/).map((part, index) => (index % 2 === 1 ? h('code', {}, part) : part));
}

function hintOf(field: Field): string {
  const notes: string[] = [];
  const description = field.description ? plainHint(field.description) : '';
  if (description) notes.push(/[.!?)]$/.test(description) ? description : `${description}.`);
  if (field.kind === 'text' && field.maxLength !== undefined) notes.push(`At most ${field.maxLength.toLocaleString('en')} characters.`);
  if (field.kind === 'number' && (field.min !== undefined || field.max !== undefined)) {
    notes.push(field.min !== undefined && field.max !== undefined ? `From ${field.min} to ${field.max}.` : field.min !== undefined ? `At least ${field.min}.` : `At most ${field.max}.`);
  }
  if ((field.kind === 'list' || field.kind === 'choices') && field.maxItems !== undefined) notes.push(`Up to ${field.maxItems}.`);
  return notes.join(' ');
}

const labelText = (field: Field): (Node | string)[] => [field.label, ...(field.required ? [h('span', { class: 'required' }, ' (required)')] : [])];

/** Label, input, hint and error line around one input; the input is registered for 400 marks. */
function framed(field: Field, input: HTMLElement, marks: FieldMarks, options: { inline?: boolean; around?: HTMLElement } = {}): HTMLElement {
  const hint = hintOf(field);
  const hintId = hint ? freshId('hint') : undefined;
  const message = h('p', { class: 'field-error', id: freshId('error'), hidden: true });
  input.setAttribute('aria-describedby', [hintId, message.id].filter(Boolean).join(' '));
  if (field.required && input.tagName !== 'FIELDSET' && (input as HTMLInputElement).type !== 'checkbox') input.setAttribute('aria-required', 'true');
  marks.register(field.pointer, input, message, field.label);
  const label = h('label', { for: input.id }, ...labelText(field));
  const shown = options.around ?? input;
  const parts = options.inline ? [shown, label] : [label, shown];
  return h('div', { class: options.inline ? 'field inline' : 'field' }, ...parts, hint ? h('p', { class: 'hint', id: hintId }, ...prose(hint)) : null, message);
}

/** A fieldset (for groups of inputs) with its legend, hint and error line. */
function fieldset(field: Field, marks: FieldMarks, ...content: Node[]): HTMLFieldSetElement {
  const hint = hintOf(field);
  const hintId = hint ? freshId('hint') : undefined;
  const message = h('p', { class: 'field-error', id: freshId('error'), hidden: true });
  const set = h('fieldset', { 'aria-describedby': [hintId, message.id].filter(Boolean).join(' ') }, h('legend', {}, ...labelText(field)));
  if (hint) set.append(h('p', { class: 'hint', id: hintId }, ...prose(hint)));
  set.append(...content, message);
  marks.register(field.pointer, set, message, field.label);
  return set;
}

export function controlOf(field: Field, marks: FieldMarks): Control {
  switch (field.kind) {
    case 'text':
    case 'json':
      return textControl(field, marks);
    case 'number':
      return numberControl(field, marks);
    case 'checkbox': {
      const input = h('input', { type: 'checkbox', id: freshId('field') });
      return {
        element: framed(field, input, marks, { inline: true }),
        read: () => ({ value: input.checked }),
        write: (value) => void (input.checked = value === undefined ? field.defaultValue === true : value === true),
      };
    }
    case 'select':
      return selectControl(field, marks);
    case 'choices':
      return choicesControl(field, marks);
    case 'list':
      return listControl(field, marks);
    case 'group':
      return groupControl(field, marks);
    case 'union':
      return unionControl(field, marks);
    case 'file':
      return fileControl(field, marks);
  }
}

function textControl(field: Field & { kind: 'text' | 'json' }, marks: FieldMarks): Control {
  const id = freshId('field');
  const attributes = { id, spellcheck: 'false', autocomplete: 'off', maxlength: field.kind === 'text' && field.maxLength !== undefined ? String(field.maxLength) : undefined };
  const multiline = field.kind === 'json' || field.multiline;
  const input = multiline ? h('textarea', { ...attributes, rows: '2' }) : h('input', { ...attributes, type: 'text' });
  // A text area grows with its text: a few lines for the body's own fields, one for nested ones.
  const fewest = field.pointer.lastIndexOf('/') === 0 ? 4 : 1;
  const fit = (): void => {
    if (input instanceof HTMLTextAreaElement) input.rows = Math.min(Math.max(input.value.split('\n').length, fewest), 16);
  };
  input.addEventListener('input', fit);
  const picker = field.kind === 'text' && field.color ? colorPicker(input, field.label) : undefined;
  // A time zone defaults to the reader's own (the form shows it, so what is sent is seen); UTC where the browser names none.
  const fallback = field.kind === 'text' && field.zone && field.defaultValue === 'UTC' ? readerZone() : field.defaultValue;
  return {
    element: framed(field, input, marks, picker ? { around: h('div', { class: 'color-field' }, picker.element, input) } : {}),
    read() {
      if (input.value === '' && !field.required) return undefined;
      if (field.kind === 'text' && field.number) {
        // Sent as a number when the text is one exactly as written and the number is one the field takes.
        const number = Number(input.value);
        if (input.value.trim() !== '' && String(number) === input.value && checkValue(field.number, number).length === 0) return { value: number };
      }
      if (field.kind === 'text') return { value: input.value };
      try {
        return { value: JSON.parse(input.value) as Json };
      } catch {
        throw new FieldError(field.pointer, 'is not valid JSON');
      }
    },
    write(value) {
      const shown = value === undefined ? fallback : value;
      input.value = shown === undefined ? '' : field.kind === 'text' && (typeof shown === 'string' || (field.number && typeof shown === 'number')) ? String(shown) : JSON.stringify(shown, null, 2);
      fit();
      picker?.follow();
    },
  };
}

function numberControl(field: Field & { kind: 'number' }, marks: FieldMarks): Control {
  const input = h('input', { type: 'number', id: freshId('field'), step: field.integer ? '1' : 'any', min: field.min?.toString(), max: field.max?.toString(), inputmode: field.integer ? 'numeric' : 'decimal' });
  return {
    element: framed(field, input, marks),
    read: () => (input.value.trim() === '' ? undefined : { value: Number(input.value) }),
    write(value) {
      const shown = value === undefined ? field.defaultValue : value;
      input.value = typeof shown === 'number' ? String(shown) : '';
    },
  };
}

function selectControl(field: Field & { kind: 'select' }, marks: FieldMarks): Control {
  const optional = !field.required && field.defaultValue === undefined;
  const select = h('select', { id: freshId('field') }, optional ? h('option', { value: '' }, '(not set)') : null, ...field.options.map((option, index) => h('option', { value: String(index) }, field.optionLabels[index]!)));
  return {
    element: framed(field, select, marks),
    read: () => (select.value === '' ? undefined : { value: field.options[Number(select.value)]! }),
    write(value) {
      const wanted = value === undefined ? field.defaultValue : value;
      const index = field.options.findIndex((option) => same(option, wanted));
      select.value = index >= 0 ? String(index) : optional ? '' : '0';
    },
  };
}

function choicesControl(field: Field & { kind: 'choices' }, marks: FieldMarks): Control {
  const boxes = field.options.map(() => h('input', { type: 'checkbox', id: freshId('choice') }));
  const set = fieldset(field, marks, h('div', { class: 'choices' }, ...boxes.map((box, index) => h('span', { class: 'choice' }, box, h('label', { for: box.id }, field.optionLabels[index]!)))));
  return {
    element: set,
    read() {
      const chosen = field.options.filter((_, index) => boxes[index]!.checked);
      return chosen.length === 0 && !field.required ? undefined : { value: [...chosen] };
    },
    write(value) {
      const wanted = Array.isArray(value) ? value : Array.isArray(field.defaultValue) ? field.defaultValue : [];
      boxes.forEach((box, index) => (box.checked = wanted.some((entry) => same(entry, field.options[index]))));
    },
  };
}

function listControl(field: Field & { kind: 'list' }, marks: FieldMarks): Control {
  const items: { control: Control; row: HTMLElement }[] = [];
  const rows = h('ol', { class: 'list-items' });
  const add = h('button', { type: 'button', class: 'secondary', 'aria-label': `Add an item to ${field.label.toLowerCase()}` }, 'Add an item');
  const append = (value: Json | undefined): void => {
    // An empty item is left out, so no item is itself required.
    const control = controlOf({ ...field.item, label: `${field.label} item ${items.length + 1}`, required: false }, marks);
    const remove = h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove ${field.label.toLowerCase()} item ${items.length + 1}` }, 'Remove');
    const row = h('li', {}, control.element, remove);
    const entry = { control, row };
    remove.addEventListener('click', () => {
      items.splice(items.indexOf(entry), 1);
      row.remove();
      add.focus();
    });
    control.write(value);
    items.push(entry);
    rows.append(row);
  };
  add.addEventListener('click', () => {
    append(undefined);
    items[items.length - 1]!.row.querySelector<HTMLElement>('input, textarea, select')?.focus();
  });
  return {
    element: fieldset(field, marks, rows, add),
    read() {
      const values = items.flatMap(({ control }) => {
        const read = control.read();
        return read ? [read.value] : [];
      });
      return values.length === 0 && !field.required ? undefined : { value: values };
    },
    write(value) {
      items.splice(0).forEach(({ row }) => row.remove());
      const wanted = Array.isArray(value) ? value : Array.isArray(field.defaultValue) ? field.defaultValue : field.required ? [''] : [];
      for (const entry of wanted) append(entry === '' && field.item.kind !== 'text' ? undefined : entry);
    },
  };
}

function groupControl(field: Field & { kind: 'group' }, marks: FieldMarks): Control {
  const members = field.members.map(({ name, field: inner }) => ({ name, control: controlOf(inner, marks) }));
  const elements = members.map(({ control }) => control.element);
  const element = field.pointer === '' ? h('div', { class: 'fields' }, ...elements) : fieldset(field, marks, ...elements);
  return {
    element,
    read() {
      const value: Record<string, Json> = { ...field.fixed };
      for (const { name, control } of members) {
        const read = control.read();
        if (read) value[name] = read.value;
      }
      return { value };
    },
    write(value) {
      const given = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
      for (const { name, control } of members) control.write(given?.[name]);
    },
  };
}

function unionControl(field: Field & { kind: 'union' }, marks: FieldMarks): Control {
  const name = freshId('union');
  const labels = [...(field.required ? [] : ['not set']), ...field.branches.map((branch) => branch.label)];
  const radios = labels.map(() => h('input', { type: 'radio', name, id: freshId('branch') }));
  const holder = h('div', { class: 'branch' });
  let current: Control | undefined;
  const show = (index: number, value: Json | undefined): void => {
    radios[index]!.checked = true;
    const branch = field.branches[field.required ? index : index - 1];
    current = branch ? controlOf({ ...branch.field, label: `${field.label} (${branch.label})` }, marks) : undefined;
    holder.replaceChildren(...(current ? [current.element] : []));
    current?.write(value);
  };
  radios.forEach((radio, index) => radio.addEventListener('change', () => show(index, undefined)));
  const kinds = h('div', { class: 'kinds', role: 'radiogroup', 'aria-label': `Kind of ${field.label.toLowerCase()}` }, ...radios.map((radio, index) => h('span', { class: 'choice' }, radio, h('label', { for: radio.id }, labels[index]!))));
  return {
    element: fieldset(field, marks, kinds, holder),
    read: () => current?.read(),
    write(value) {
      const wanted = value === undefined ? field.defaultValue : value;
      const match = wanted === undefined ? -1 : field.branches.findIndex((branch) => roughlyMatches(branch.schema, wanted));
      const offset = field.required ? 0 : 1;
      show(match >= 0 ? match + offset : 0, match >= 0 ? wanted : undefined);
    },
  };
}

function fileControl(field: Field & { kind: 'file' }, marks: FieldMarks): Control {
  const input = h('input', { type: 'file', id: freshId('field'), accept: field.mediaType });
  const status = h('p', { class: 'file-status', 'aria-live': 'polite' }, 'No file chosen.');
  let base64: string | undefined;
  const take = (file: File): void => {
    status.textContent = `Reading ${file.name}…`;
    const read = new Promise<void>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => {
        base64 = String(reader.result).replace(/^data:[^,]*,/, '');
        status.textContent = `${file.name}, ${file.size.toLocaleString('en')} bytes.`;
        resolve();
      };
      reader.onerror = () => {
        status.textContent = `${file.name} could not be read.`;
        resolve();
      };
      reader.readAsDataURL(file);
    });
    reading.add(read);
    void read.then(() => reading.delete(read));
  };
  input.addEventListener('change', () => input.files?.[0] && take(input.files[0]));
  const zone = h('div', { class: 'drop-zone' }, input, status, h('p', { class: 'drop-hint' }, 'Choose a file, or drop one here.'));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) take(file);
  });
  return {
    element: framed(field, input, marks, { around: zone }),
    read: () => (base64 === undefined ? undefined : { value: base64 }),
    write(value) {
      base64 = typeof value === 'string' ? value : undefined;
      input.value = '';
      status.textContent = base64 === undefined ? 'No file chosen.' : `The example's file, ${Math.floor((base64.length * 3) / 4).toLocaleString('en')} bytes.`;
    },
  };
}
