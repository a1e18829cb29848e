/**
 * `details` for a value that fits none of a union's forms (`anyOf`/`oneOf` of typed schemas: a code
 * or a list of codes, objects told apart by a `type` tag). When the value's type (and tag) picks
 * one form, the details are what is wrong with it as that form; otherwise one detail names every
 * form and the nearest to what was sent, with what the value lacks as that one — what a client (or
 * a model) needs to correct its call at once.
 */
import type { ErrorDetail } from './errors.js';
import { editDistance } from './nearest.js';
import type { Describe } from './rule-details.js';

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The wording of a union no form of which fits; the list of forms follows it after a colon. */
export const NO_FORM_FITS = 'does not match any of the allowed forms';

const typeNames: Record<string, string> = { number: 'a number', integer: 'an integer', string: 'a string', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null' };

/** JSON Schema's name for the type of a JSON value. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const fitsType = (form: unknown, type: string): boolean => {
  const wanted = isNode(form) ? form.type : undefined;
  return wanted === type || (wanted === 'number' && type === 'integer');
};

/** The `const` properties of an object form (`type: "wifi"`), which tell it from the others. */
function tagsOf(form: unknown): [string, unknown][] {
  const properties = isNode(form) ? form.properties : undefined;
  if (!isNode(properties)) return [];
  return Object.entries(properties).flatMap(([name, property]) => (isNode(property) && 'const' in property ? [[name, property.const] as [string, unknown]] : []));
}

/** True when every tag of an object form has its value in `value`. */
function tagsMatch(form: unknown, value: unknown): boolean {
  const tags = tagsOf(form);
  return tags.length > 0 && isNode(value) && tags.every(([name, tag]) => value[name] === tag);
}

/** Most forms named in one message; a union of more says how many are left. */
const MAX_FORMS_NAMED = 8;

/** A form in a few characters: `{"type":"wifi","ssid":…}` for an object (its tags and required fields), else its type or values. */
export function sketch(form: unknown): string {
  if (!isNode(form)) return 'another form';
  if ('const' in form) return JSON.stringify(form.const);
  if (Array.isArray(form.enum)) return `one of ${form.enum.slice(0, MAX_FORMS_NAMED).map((value) => JSON.stringify(value)).join(', ')}`;
  if (form.type === 'object') {
    const tags = tagsOf(form);
    // What must be sent: a defaulted field is filled in, so it is left out as on the wire.
    const properties = isNode(form.properties) ? form.properties : {};
    const sent = (name: unknown): name is string => typeof name === 'string' && !tags.some(([tag]) => tag === name) && !(isNode(properties[name]) && 'default' in properties[name]);
    const required = (Array.isArray(form.required) ? form.required : []).filter(sent);
    if (tags.length === 0 && required.length === 0) return 'an object';
    const members = [...tags.map(([name, tag]) => `${JSON.stringify(name)}:${JSON.stringify(tag)}`), ...required.map((name) => `${JSON.stringify(name)}:…`)];
    return `{${members.join(',')}}`;
  }
  return typeof form.type === 'string' ? (typeNames[form.type] ?? form.type) : 'another form';
}

/** `a, b or c`. */
function listed(words: readonly string[]): string {
  const shown = words.slice(0, MAX_FORMS_NAMED);
  const rest = words.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} or ${rest} more`;
  return shown.length < 2 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/** How far `value`'s tags are from the form's (0: all match); forms without tags are 0. */
function tagDistance(form: unknown, value: unknown): number {
  return tagsOf(form).reduce((sum, [name, tag]) => {
    const given = isNode(value) ? value[name] : undefined;
    if (given === tag) return sum;
    return sum + (typeof given === 'string' && typeof tag === 'string' ? editDistance(given, tag) : 100);
  }, 0);
}

/** `value` checked as `form` by `describe` (which fills the form's defaults on a copy: the union's were not, no form matched). */
const problemsAs = (form: unknown, value: unknown, describe: Describe): ErrorDetail[] => (isNode(form) ? describe(form, value) : []);

/**
 * The details of `value` (at `path`) that fits none of `union`'s branches; undefined when the
 * union has no list of branches.
 */
export function unionDetails(union: unknown, keyword: 'anyOf' | 'oneOf', value: unknown, path: string, describe: Describe): ErrorDetail[] | undefined {
  const branches = isNode(union) ? union[keyword] : undefined;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const type = jsonType(value);
  let fitting = branches.filter((branch) => fitsType(branch, type));
  if (fitting.length > 1 && type === 'object') fitting = fitting.filter((form) => tagsMatch(form, value));
  if (fitting.length === 1) {
    // The value is meant as this form: what is wrong with it as that one, at each place.
    const inner = problemsAs(fitting[0], value, describe);
    if (inner.length > 0) return inner.map((detail) => ({ path: `${path}${detail.path}`, message: detail.message }));
  }
  // The nearest: a form of the value's type first, then the nearest tags, then the fewest problems, then the first.
  const candidates = branches.some((branch) => fitsType(branch, type)) ? branches.filter((branch) => fitsType(branch, type)) : branches;
  const scored = candidates.map((form, index) => ({ form, index, tags: tagDistance(form, value), problems: problemsAs(form, value, describe) }));
  scored.sort((a, b) => a.tags - b.tags || a.problems.length - b.problems.length || a.index - b.index);
  const nearest = scored[0]!;
  const first = nearest.problems[0];
  const why = first === undefined ? '' : ` (${first.path === '' ? '' : `${first.path}: `}${first.message})`;
  return [{ path, message: `${NO_FORM_FITS}: ${listed(branches.map(sketch))}; nearest: ${sketch(nearest.form)}${why}` }];
}
