/**
 * A request body schema → the form that asks for it: one field per property, chosen by what the
 * schema says (type, bounds, enumerations, unions, content encoding). Pure data, so it is tested in
 * Node; the browser script turns it into controls (tool-pages/browser/form.ts).
 */
import { alternativesOf, labelOf, literalsOf, pointerSegment, typeOf, valueLabel, type Json, type Schema } from './schema.js';

/** Strings allowed more characters than this (or unbounded) get a text area. */
export const SINGLE_LINE_MAX = 1000;

interface Common {
  /** JSON Pointer of the value in the body: how a 400's `details` find the field. */
  readonly pointer: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  readonly defaultValue?: Json;
}

export type Field = Common &
  (
    /**
     * `color`: a CSS colour, which the page also offers a colour picker for; `zone`: an IANA time
     * zone, which the page fills with the reader's own when the schema's default is UTC; `number`:
     * the schema of the number a union of a number and a text also takes (typed in the one box).
     */
    | { kind: 'text'; multiline: boolean; minLength?: number; maxLength?: number; color?: boolean; zone?: boolean; number?: Schema }
    | { kind: 'number'; integer: boolean; min?: number; max?: number }
    | { kind: 'checkbox' }
    | { kind: 'select'; options: readonly Json[]; optionLabels: readonly string[] }
    /** An array of distinct fixed values: one checkbox each. */
    | { kind: 'choices'; options: readonly Json[]; optionLabels: readonly string[]; minItems?: number; maxItems?: number }
    | { kind: 'list'; item: Field; minItems?: number; maxItems?: number }
    | { kind: 'group'; members: readonly { name: string; field: Field }[]; fixed: Readonly<Record<string, Json>> }
    | { kind: 'union'; branches: readonly { label: string; schema: Schema; field: Field }[] }
    /** A file sent as Base64 (`contentEncoding: base64`). */
    | { kind: 'file'; mediaType?: string }
    /** Anything else: JSON typed by hand. */
    | { kind: 'json' }
  );

/** A text field that holds a CSS colour: named so (`color`, `background`) or described so ("any CSS colour"). */
const isColorField = (pointer: string, schema: Schema): boolean => /(?:colou?r|foreground|background)$/i.test(pointer) || /\bCSS colou?r\b/i.test(schema.description ?? '');
/** A text field that holds an IANA time zone: named so (`timeZone`, `tz`) or described so. */
const isZoneField = (pointer: string, schema: Schema): boolean => /(?:^|\/)(?:time_?zone|tz)$/i.test(pointer) || /\bIANA time[- ]zone\b/i.test(schema.description ?? '');

/** A branch's name in a union switch: its fixed `type`-like member, its title, or its JSON type. */
function branchLabel(schema: Schema, field: Field): string {
  if (field.kind === 'group') {
    const fixed = Object.values(field.fixed);
    if (fixed.length === 1) return String(fixed[0]);
  }
  if (schema.title) return schema.title;
  const type = typeOf(schema);
  return type === 'string' ? 'text' : type === 'array' ? 'list' : type === 'integer' ? 'number' : (type ?? 'value');
}

/** The two branches of a union of a number (or integer) and a text, or undefined for any other union. */
function numberAndText(branches: readonly Schema[]): { number: Schema; text: Schema } | undefined {
  const number = branches.find((branch) => (branch.type === 'number' || branch.type === 'integer') && literalsOf(branch) === undefined);
  const text = branches.find((branch) => branch.type === 'string' && literalsOf(branch) === undefined && branch.contentEncoding === undefined);
  return number && text ? { number, text } : undefined;
}

/** The field asking for a value of `schema` at `pointer`. */
export function fieldOf(schema: Schema, pointer: string, label: string, required: boolean): Field {
  const common: Common = {
    pointer,
    label,
    required,
    ...(schema.description ? { description: schema.description } : {}),
    ...(schema.default !== undefined ? { defaultValue: schema.default } : {}),
  };
  const literals = literalsOf(schema);
  if (literals) return { ...common, kind: 'select', options: literals, optionLabels: literals.map((literal) => valueLabel(literal, schema)) };
  const alternatives = alternativesOf(schema);
  const numberOrText = alternatives?.length === 2 ? numberAndText(alternatives) : undefined;
  if (numberOrText) {
    // A number or a text (a timestamp or a date, a number or a numeral): one box, as a person writes either.
    const text = fieldOf(numberOrText.text, pointer, label, required);
    if (text.kind === 'text') return { ...text, ...common, number: numberOrText.number };
  }
  if (alternatives) {
    const branches = alternatives.map((branch) => {
      const field = fieldOf(branch, pointer, label, true);
      return { label: branchLabel(branch, field), schema: branch, field };
    });
    return { ...common, kind: 'union', branches };
  }
  switch (typeOf(schema)) {
    case 'string':
      if (schema.contentEncoding === 'base64') return { ...common, kind: 'file', ...(schema.contentMediaType ? { mediaType: schema.contentMediaType } : {}) };
      return {
        ...common,
        kind: 'text',
        // Unbounded text is a text area unless a pattern or format says it is a short token.
        multiline: schema.maxLength === undefined ? schema.pattern === undefined && schema.format === undefined : schema.maxLength > SINGLE_LINE_MAX,
        ...(schema.minLength !== undefined ? { minLength: schema.minLength } : {}),
        ...(schema.maxLength !== undefined ? { maxLength: schema.maxLength } : {}),
        ...(isColorField(pointer, schema) ? { color: true } : {}),
        ...(isZoneField(pointer, schema) ? { zone: true } : {}),
      };
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max = schema.maximum ?? schema.exclusiveMaximum;
      return { ...common, kind: 'number', integer: typeOf(schema) === 'integer', ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    }
    case 'boolean':
      return { ...common, kind: 'checkbox' };
    case 'array':
      return arrayField(schema, common);
    case 'object':
      if (schema.properties) return groupField(schema, common);
      return { ...common, kind: 'json' };
    default:
      return { ...common, kind: 'json' };
  }
}

function arrayField(schema: Schema, common: Common): Field {
  const bounds = { ...(schema.minItems !== undefined ? { minItems: schema.minItems } : {}), ...(schema.maxItems !== undefined ? { maxItems: schema.maxItems } : {}) };
  const items = schema.items ?? {};
  const options = literalsOf(items);
  if (options && schema.uniqueItems === true) return { ...common, kind: 'choices', options, optionLabels: options.map((option) => valueLabel(option, items)), ...bounds };
  return { ...common, kind: 'list', item: fieldOf(items, `${common.pointer}/-`, `${common.label} item`, true), ...bounds };
}

function groupField(schema: Schema, common: Common): Field {
  const required = new Set(schema.required ?? []);
  const members: { name: string; field: Field }[] = [];
  const fixed: Record<string, Json> = {};
  for (const [name, inner] of Object.entries(schema.properties ?? {})) {
    const literals = literalsOf(inner);
    // A member with one possible value (a union's `type` discriminator) is sent, never asked.
    if (literals?.length === 1 && required.has(name)) fixed[name] = literals[0]!;
    else members.push({ name, field: fieldOf(inner, `${common.pointer}/${pointerSegment(name)}`, labelOf(name, inner), required.has(name)) });
  }
  return { ...common, kind: 'group', members, fixed };
}

/**
 * The field a 422 is about when it names none: the first required text or file field of the body,
 * else its first field. A 422 concerns the input as a whole, and most tools have one main input.
 */
export function mainField(form: Field): Field | undefined {
  if (form.kind !== 'group') return undefined;
  const fields = form.members.map((member) => member.field);
  return fields.find((field) => field.required && (field.kind === 'text' || field.kind === 'file' || field.kind === 'json')) ?? fields[0];
}

/**
 * The top-level field a tool's message names by its name, as a word of its own ("Invalid regular
 * expression: flags may only hold…" names `flags`; "whole is 0" names `whole`): the one named
 * first. Labels are not looked for: "at error correction H" says why the text does not fit, and the
 * text is what to change.
 */
export function namedField(form: Field, message: string): Field | undefined {
  if (form.kind !== 'group') return undefined;
  const words = message.toLowerCase().split(/[^a-z0-9]+/);
  let best: { field: Field; at: number } | undefined;
  for (const { name, field } of form.members) {
    const at = words.indexOf(name.toLowerCase());
    if (at >= 0 && (best === undefined || at < best.at)) best = { field, at };
  }
  return best?.field;
}

/** The form of a whole request body (an object schema). */
export const formOf = (body: Schema): Field => fieldOf(body, '', 'Request', true);

/** Every property name in a schema, nested ones included: what the list page's search matches. */
export function fieldNames(schema: Schema): string[] {
  const names: string[] = [];
  const walk = (inner: Schema): void => {
    for (const [name, property] of Object.entries(inner.properties ?? {})) {
      names.push(name);
      walk(property);
    }
    if (inner.items) walk(inner.items);
    for (const branch of alternativesOf(inner) ?? []) walk(branch);
  };
  walk(schema);
  return [...new Set(names)];
}
