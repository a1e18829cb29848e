/**
 * The page's own look at a body before a live answer is asked for: the rules of the body schema a
 * form can break while the person types (a required field still empty, text too short or too long,
 * a number out of bounds, a pattern not yet met), said in the validator's words so
 * problems.ts turns them into the same sentences as a 400. It only ever refuses what the service
 * would refuse: a rule it cannot judge exactly (a format, an `if`/`then`, text whose length the
 * service counts in graphemes) passes, and the service decides. Pure, so it is tested in Node.
 */
import { alternativesOf, isRecord, jsonTypeOf, literalsOf, pointerSegment, type Json, type Schema } from './schema.js';

export interface CheckProblem {
  readonly path: string;
  readonly message: string;
}

/** True when the service and the page count `text` alike: only characters below U+0300 (no combining marks, surrogate pairs or joiners). */
function countedAlike(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) >= 0x300) return false;
  return true;
}

/** True when `text` has fewer than `count` code points, counted only as far as needed (a pasted megabyte is not spread). */
function fewerCodePoints(text: string, count: number): boolean {
  if (text.length >= 2 * count) return false;
  let seen = 0;
  for (let index = 0; index < text.length; index++) {
    // A high surrogate followed by a low one is one code point.
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
    if (++seen >= count) return false;
  }
  return true;
}

const typeFits = (schema: Schema, value: Json): boolean => {
  const types = schema.type === undefined ? undefined : [schema.type].flat();
  if (types === undefined) return true;
  const actual = jsonTypeOf(value);
  return types.some((type) => type === actual || (type === 'number' && actual === 'integer'));
};

function checkString(schema: Schema, value: string, path: string, found: CheckProblem[]): void {
  // Fewer code points than the minimum is fewer of anything the service counts.
  if (schema.minLength !== undefined && fewerCodePoints(value, schema.minLength)) found.push({ path, message: `must not have fewer than ${schema.minLength} characters` });
  if (schema.maxLength !== undefined && countedAlike(value) && value.length > schema.maxLength) found.push({ path, message: `must not have more than ${schema.maxLength} characters` });
  if (schema.pattern !== undefined) {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      pattern = undefined; // A pattern this browser cannot read: the service judges it.
    }
    if (pattern && !pattern.test(value)) found.push({ path, message: `must match pattern "${schema.pattern}"` });
  }
}

function checkNumber(schema: Schema, value: number, path: string, found: CheckProblem[]): void {
  if (schema.type === 'integer' && !Number.isInteger(value)) found.push({ path, message: 'must be integer' });
  if (schema.maximum !== undefined && value > schema.maximum) found.push({ path, message: `must be <= ${schema.maximum}` });
  if (schema.minimum !== undefined && value < schema.minimum) found.push({ path, message: `must be >= ${schema.minimum}` });
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) found.push({ path, message: `must be < ${schema.exclusiveMaximum}` });
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) found.push({ path, message: `must be > ${schema.exclusiveMinimum}` });
}

/** Every rule of `schema` that `value` breaks and the page can judge exactly; empty when it may be sent. */
export function checkValue(schema: Schema, value: Json, path = ''): CheckProblem[] {
  const found: CheckProblem[] = [];
  const literals = literalsOf(schema);
  if (literals) {
    if (!literals.some((literal) => JSON.stringify(literal) === JSON.stringify(value))) found.push({ path, message: `must be one of ${literals.map((literal) => JSON.stringify(literal)).join(', ')}` });
    return found;
  }
  const alternatives = alternativesOf(schema);
  if (alternatives) {
    // Refused only when no branch takes it; two that do (a oneOf) is for the service to say.
    if (alternatives.every((branch) => checkValue(branch, value, path).length > 0)) found.push({ path, message: 'does not match any of the allowed forms' });
    return found;
  }
  if (!typeFits(schema, value)) {
    const type = [schema.type].flat()[0];
    return [{ path, message: `must be ${type}` }];
  }
  if (typeof value === 'string') checkString(schema, value, path, found);
  else if (typeof value === 'number') checkNumber(schema, value, path, found);
  else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) found.push({ path, message: `must not have fewer than ${schema.minItems} items` });
    if (schema.maxItems !== undefined && value.length > schema.maxItems) found.push({ path, message: `must not have more than ${schema.maxItems} items` });
    if (schema.items) value.forEach((item, index) => found.push(...checkValue(schema.items!, item, `${path}/${index}`)));
  } else if (isRecord(value)) {
    for (const name of schema.required ?? []) {
      // A required member with a default is filled in by the service.
      if (!(name in value) && schema.properties?.[name]?.default === undefined) found.push({ path: `${path}/${pointerSegment(name)}`, message: 'is required' });
    }
    for (const [name, inner] of Object.entries(schema.properties ?? {})) {
      if (name in value) found.push(...checkValue(inner, value[name]!, `${path}/${pointerSegment(name)}`));
    }
  }
  return found;
}
