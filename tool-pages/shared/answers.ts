/**
 * An answer (with its response schema) → how a person sees it, decided by shape, never by tool
 * name: an SVG string as an image, a Base64 file as a download, multi-line text as a code block,
 * `same`/`add`/`del` parts as a coloured diff, `left`/`right` rows side by side, arrays of records
 * as tables, objects as labelled values. Pure data; tool-pages/browser/answer.ts draws it.
 */
import { humanize, isRecord, type Json, type Schema } from './schema.js';

/** Text longer than this, or with a line break, goes in a code block rather than on one line. */
export const INLINE_TEXT_MAX = 80;

export type View =
  | { kind: 'image'; mediaType: string; text: string }
  | { kind: 'file'; mediaType: string; base64: string }
  | { kind: 'code'; text: string }
  | { kind: 'value'; text: string }
  | { kind: 'empty' }
  | { kind: 'parts'; parts: readonly DiffPart[] }
  | { kind: 'side-by-side'; rows: readonly DiffRow[] }
  | { kind: 'table'; columns: readonly { name: string; label: string }[]; rows: readonly (readonly View[])[] }
  | { kind: 'list'; items: readonly View[] }
  | { kind: 'record'; entries: readonly { name: string; label: string; description?: string; view: View }[] };

export interface DiffPart {
  readonly type: 'same' | 'add' | 'del';
  readonly value: string;
}

export interface DiffSide {
  readonly no: number;
  readonly text: string;
  readonly parts?: readonly DiffPart[];
}

export interface DiffRow {
  readonly type: string;
  readonly left?: DiffSide;
  readonly right?: DiffSide;
}

const DIFF_TYPES = new Set(['same', 'add', 'del']);
const isPart = (value: unknown): value is DiffPart => isRecord(value) && DIFF_TYPES.has(value.type as string) && typeof value.value === 'string';
const isSide = (value: unknown): boolean => value === undefined || (isRecord(value) && typeof value.no === 'number' && typeof value.text === 'string');
const isRow = (value: unknown): value is DiffRow => isRecord(value) && typeof value.type === 'string' && ('left' in value || 'right' in value) && isSide(value.left) && isSide(value.right);

/** A record whose members are all shown in one table cell each: scalars, or arrays and records that nest. */
const isRecordList = (value: Json[]): value is Record<string, Json>[] => value.length > 0 && value.every(isRecord);

function columnsOf(schema: Schema | undefined, rows: Record<string, Json>[]): { name: string; label: string }[] {
  const names = Object.keys(schema?.properties ?? {});
  for (const row of rows) for (const name of Object.keys(row)) if (!names.includes(name)) names.push(name);
  return names.filter((name) => rows.some((row) => name in row)).map((name) => ({ name, label: humanize(name) }));
}

/** How `value`, an instance of `schema`, is shown. */
export function viewOf(schema: Schema | undefined, value: Json | undefined): View {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return { kind: 'empty' };
  if (typeof value === 'string') {
    const mediaType = schema?.contentMediaType;
    if (schema?.contentEncoding === 'base64') return { kind: 'file', mediaType: mediaType ?? 'application/octet-stream', base64: value };
    if (mediaType === 'image/svg+xml') return { kind: 'image', mediaType, text: value };
    return value.includes('\n') || value.length > INLINE_TEXT_MAX ? { kind: 'code', text: value } : { kind: 'value', text: value };
  }
  if (typeof value !== 'object') return { kind: 'value', text: String(value) };
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isPart)) return { kind: 'parts', parts: value as unknown as DiffPart[] };
    if (value.length > 0 && value.every(isRow)) return { kind: 'side-by-side', rows: value as unknown as DiffRow[] };
    const items = schema?.items;
    if (isRecordList(value)) {
      const columns = columnsOf(items, value);
      return { kind: 'table', columns, rows: value.map((row) => columns.map(({ name }) => viewOf(items?.properties?.[name], row[name]))) };
    }
    return { kind: 'list', items: value.map((item) => viewOf(items, item)) };
  }
  const properties = schema?.properties ?? {};
  const extra = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  return {
    kind: 'record',
    entries: Object.entries(value).map(([name, inner]) => {
      const property = properties[name] ?? extra;
      // Keys of a map (rates by currency, hashes by algorithm) are data: shown as they are.
      const label = properties[name] ? humanize(name) : name;
      return { name, label, ...(property?.description ? { description: property.description } : {}), view: viewOf(property, inner) };
    }),
  };
}

/** The plain-text form of a view, for copy buttons. */
export function textOf(view: View): string {
  switch (view.kind) {
    case 'image':
    case 'code':
    case 'value':
      return view.text;
    case 'file':
      return view.base64;
    case 'empty':
      return '';
    case 'parts':
      return view.parts.map((part) => part.value).join('');
    case 'side-by-side':
      return view.rows.map((row) => `${row.left?.text ?? ''}\t${row.right?.text ?? ''}`).join('\n');
    case 'table':
      return [view.columns.map((column) => column.label), ...view.rows.map((row) => row.map(textOf))].map((cells) => cells.join('\t')).join('\n');
    case 'list':
      return view.items.map(textOf).join('\n');
    case 'record':
      return view.entries.map((entry) => `${entry.label}: ${textOf(entry.view)}`).join('\n');
  }
}

/** A failed request, in words: the sentence shown, and for a 400 the fields it names. */
export interface Problem {
  readonly message: string;
  readonly fields: readonly { pointer: string; message: string }[];
}

/** What a person reads for an error answer (`status`, its JSON `body`, its Retry-After header). */
export function problemOf(status: number, body: unknown, retryAfter: string | null): Problem {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const said = typeof error.message === 'string' ? error.message : `The service answered ${status}.`;
  const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
  const fields = details.flatMap((detail) => (typeof detail.path === 'string' && typeof detail.message === 'string' ? [{ pointer: detail.path, message: detail.message }] : []));
  if (status === 400 && fields.length > 0) return { message: `Check the marked field${fields.length === 1 ? '' : 's'}: ${said}`, fields };
  if (status === 422) return { message: `The tool cannot process this input: ${said}`, fields };
  if (status === 429) {
    const seconds = Number(retryAfter);
    const wait = Number.isInteger(seconds) && seconds > 0 ? `in ${seconds} second${seconds === 1 ? '' : 's'}` : 'in a moment';
    return { message: `Too many requests from this address for now: try again ${wait}.`, fields };
  }
  return { message: said, fields };
}
