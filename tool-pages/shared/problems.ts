/**
 * A failed request in plain words: the validator's details (`must not have fewer than 1
 * characters` at `/text`) become sentences with the field's label ("Fill in Text."), and each
 * status a person can meet gets a sentence that says what to do. Pure, so it is tested in Node.
 */
import { humanize, isRecord } from './schema.js';

/** A failed request, in words: the sentence shown, and the fields it names. */
export interface Problem {
  readonly message: string;
  readonly fields: readonly { pointer: string; message: string }[];
}

const TYPES: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'yes or no', object: 'a group of values', array: 'a list' };

/** The label of the field at `pointer` when the page has none: its last segment in words. */
export const pointerLabel = (pointer: string): string => humanize(decodeURIComponent(pointer.split('/').filter((part) => part !== '' && !/^\d+$/.test(part)).pop() ?? 'the request'));

/** One validator message about the field labelled `label`, as a sentence. */
export function plainMessage(label: string, message: string): string {
  const rules: [RegExp, (...found: string[]) => string][] = [
    [/^(?:is required|must not have fewer than 1 characters?)$/, () => `Fill in ${label}.`],
    [/^must not have fewer than (\d+) characters?$/, (count) => `${label} needs at least ${count} characters.`],
    [/^must not have more than (\d+) characters?$/, (count) => `${label} takes at most ${count} characters.`],
    [/^must (?:not have fewer than|have at least) (\d+) items?$/, (count) => `${label} needs at least ${count} item${count === '1' ? '' : 's'}.`],
    [/^must (?:not have more than|have at most) (\d+) items?$/, (count) => `${label} takes at most ${count} item${count === '1' ? '' : 's'}.`],
    [/^must be <= (\S+)$/, (bound) => `${label} must be at most ${bound}.`],
    [/^must be >= (\S+)$/, (bound) => `${label} must be at least ${bound}.`],
    [/^must be < (\S+)$/, (bound) => `${label} must be less than ${bound}.`],
    [/^must be > (\S+)$/, (bound) => `${label} must be more than ${bound}.`],
    [/^must be (integer|number|string|boolean|object|array)(?: or .*)?$/, (type) => `${label} must be ${TYPES[type] ?? type}.`],
    [/^must be one of (.+)$/, (values) => `${label} must be one of ${values}.`],
    [/^must match (?:pattern|format) /, () => `${label} is not in the expected form.`],
    [/^is not of the form the schema states: (.+)$/, (form) => `${label}: ${form.replace(/\.?$/, '.')}`],
    [/^does not match (?:any of the allowed forms|the schema)$/, () => `${label} is not in any accepted form.`],
    [/^is not an allowed property$/, () => `${label} is not expected here.`],
    [/^must not hold duplicate items$/, () => `${label} lists an item twice.`],
    [/^repeats (.+)$/, (item) => `${label} repeats ${item}.`],
  ];
  for (const [pattern, say] of rules) {
    const found = pattern.exec(message);
    if (found) return say(...found.slice(1));
  }
  return `${label}: ${message.replace(/\.?$/, '.')}`;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What a person reads for an error answer (`status`, its JSON `body`, its Retry-After header);
 * `labelOf` gives the label of the field at a JSON Pointer, as the form shows it.
 */
export function problemOf(status: number, body: unknown, retryAfter: string | null, labelOf: (pointer: string) => string = pointerLabel): Problem {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const said = typeof error.message === 'string' ? error.message : `The service answered ${status}.`;
  const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
  const fields = details.flatMap((detail) => (typeof detail.path === 'string' && typeof detail.message === 'string' ? [{ pointer: detail.path, message: plainMessage(labelOf(detail.path), detail.message) }] : []));
  if (status === 400 && fields.length > 0) return { message: `Check the marked field${fields.length === 1 ? '' : 's'}: ${fields[0]!.message}`, fields };
  if (status === 400 && error.code === 'invalid_json') return { message: 'The form could not be sent as JSON; reload the page and try again.', fields };
  if (status === 422) return { message: `The tool cannot process this input: ${said.replace(/\.?$/, '.')}`, fields };
  if (status === 401) return { message: 'This server asks for an API key on every request, and these pages send none: use the API with a key (see the API reference).', fields };
  if (status === 413) return { message: 'The input is too large for this server: try a smaller one.', fields };
  if (status === 429) {
    const seconds = Number(retryAfter);
    const wait = Number.isInteger(seconds) && seconds > 0 ? `in ${plural(seconds, 'second')}` : 'in a moment';
    return { message: `Too many requests from this address for now: try again ${wait}.`, fields };
  }
  if (status >= 500) return { message: typeof error.message === 'string' ? `${said.replace(/\.?$/, '.')} Try again later.` : `The service failed to answer (${status}): try again later.`, fields };
  return { message: said, fields };
}

/**
 * A field's description as a hint for a person: the API's words about refusals ("is 400 on
 * /timeZone", "is 422 `division_by_zero`", "(the schema's `oneOf`)") become "is refused", and
 * sentences about the schema document itself are left out.
 */
export function plainHint(description: string): string {
  return description
    .replace(/\s*\(the schema's `[^`]+`\)/g, '')
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => !/\bthe schema\b/i.test(sentence))
    .join(' ')
    .replace(/\b(is|are) (?:a )?(?:400|422)(?: on \/[\w~/-]+| naming [^.;,)]+| `[a-z_]+`| [a-z]+_[a-z_]+)?/g, '$1 refused')
    .replace(/: (?:400|422)\)/g, ': refused)')
    .trim();
}
