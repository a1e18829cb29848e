/**
 * Our own check of the five-field cron syntax, before cron-parser sees the expression: cron-parser
 * accepts (and guesses at) more than a classic crontab does — a sixth seconds field, Jenkins `H`
 * (a random value), Quartz `?`, `L`, `W`, `#`, a step on a single value. We accept exactly Vixie
 * cron's grammar and hand cron-parser a normalized expression whose meaning is not in doubt.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES },
  // 0 and 7 are both Sunday, as in Vixie cron.
  { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES },
];

/** The macros Vixie cron defines with a schedule (`@reboot` has none). */
export const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A checked expression: its normalized text and the values each field allows. */
export interface ParsedCron {
  /** Five fields, single spaces, names replaced by numbers (`mon-fri` → `1-5`). */
  normalized: string;
  /** The normalized text of each field. */
  fields: readonly string[];
  /** Allowed values per field (day-of-week 7 folded into 0). */
  values: readonly (readonly number[])[];
}

/** Quotes a piece of the input for a message, never more than ~40 characters. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

function invalid(message: string): never {
  throw new UnprocessableError('invalid_cron', message);
}

function parseValue(text: string, spec: FieldSpec): number {
  const problem = `${spec.name} field: `;
  if (/^[0-9]+$/.test(text)) {
    // Leading zeros are harmless; a long digit run is out of range whatever it says.
    const value = text.length > 4 ? Infinity : Number(text);
    if (value < spec.min || value > spec.max) invalid(`${problem}value ${quote(text)} is outside ${spec.min}–${spec.max}`);
    return value;
  }
  const index = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (index >= 0) return index + (spec.name === 'month' ? 1 : 0);
  if (/^h/i.test(text)) invalid(`${problem}Jenkins-style H (hashed value) is not standard cron`);
  if (/[?lw#]/i.test(text)) invalid(`${problem}${quote(text)} uses Quartz syntax (? L W #), which standard cron does not have`);
  const hint = spec.names ? ` or a name such as ${spec.names[0]}` : '';
  return invalid(`${problem}${quote(text)} is not a number${hint}`);
}

/** Checks one comma-separated element: `*`, `n`, `a-b`, `* /s` or `a-b/s` (no blanks). */
function parseElement(element: string, spec: FieldSpec): { text: string; values: number[] } {
  const problem = `${spec.name} field: `;
  if (element === '') invalid(`${problem}an empty list element (stray comma)`);
  const slash = element.indexOf('/');
  const base = slash < 0 ? element : element.slice(0, slash);
  let step = 1;
  let stepText = '';
  if (slash >= 0) {
    const raw = element.slice(slash + 1);
    if (!/^[0-9]+$/.test(raw)) invalid(`${problem}the step ${quote(raw)} is not a whole number`);
    const span = spec.max - spec.min + (spec.name === 'day-of-week' ? 0 : 1);
    step = raw.length > 4 ? Infinity : Number(raw);
    if (step < 1 || step > span) invalid(`${problem}the step ${quote(raw)} is outside 1–${span}`);
    stepText = `/${step}`;
  }
  let low: number;
  let high: number;
  let baseText: string;
  if (base === '*') {
    [low, high, baseText] = [spec.min, spec.max, '*'];
  } else {
    const dash = base.indexOf('-');
    if (dash < 0 && slash >= 0) invalid(`${problem}a step needs * or a range before it (write ${quote(`${base}-${spec.max}${stepText}`)})`);
    low = parseValue(dash < 0 ? base : base.slice(0, dash), spec);
    high = dash < 0 ? low : parseValue(base.slice(dash + 1), spec);
    if (low > high) invalid(`${problem}the range ${quote(base)} runs backwards`);
    baseText = dash < 0 ? String(low) : `${low}-${high}`;
  }
  const values: number[] = [];
  for (let value = low; value <= high; value += step) values.push(value);
  return { text: baseText + stepText, values };
}

function parseField(text: string, spec: FieldSpec): { text: string; values: number[] } {
  const elements = text.split(',').map((element) => parseElement(element, spec));
  const values = new Set(elements.flatMap((element) => element.values).map((value) => (spec.name === 'day-of-week' ? value % 7 : value)));
  return { text: elements.map((element) => element.text).join(','), values: [...values].sort((a, b) => a - b) };
}

/** Checks `expression` (five fields or a macro) and normalizes it; 422 `invalid_cron` naming the wrong field. */
export function parseCron(expression: string): ParsedCron {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) {
    const macro = MACROS[trimmed];
    if (trimmed === '@reboot') invalid('@reboot runs at startup and has no schedule to explain');
    // Not quoted: the macro is the whole expression, and messages never repeat a whole field.
    if (macro === undefined) invalid(`unknown macro: use one of ${Object.keys(MACROS).join(' ')}`);
    return parseCron(macro);
  }
  const parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  if (parts.length !== FIELDS.length) {
    const extra = parts.length === 6 ? ' (a seconds or year field is not standard cron)' : '';
    invalid(`expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}${extra}`);
  }
  const parsed = parts.map((part, index) => parseField(part, FIELDS[index]!));
  const fields = parsed.map((field) => field.text);
  return { normalized: fields.join(' '), fields, values: parsed.map((field) => field.values) };
}
