/**
 * An answer (with its response schema) → how a person sees it, decided by shape, never by tool
 * name: an SVG string as an image, a Base64 file as a download, multi-line text as a code block,
 * `same`/`add`/`del` parts as a coloured diff, `left`/`right` rows side by side, arrays of records
 * as tables, objects as labelled values. Pure data; tool-pages/browser/answer.ts draws it.
 */
import { humanize, isRecord, labelOf, valueLabel, type Json, type Schema } from './schema.js';

/** Text longer than this, or with a line break, goes in a code block rather than on one line. */
export const INLINE_TEXT_MAX = 80;

export type View =
  | { kind: 'image'; mediaType: string; text: string }
  | { kind: 'file'; mediaType: string; base64: string }
  | { kind: 'code'; text: string }
  /** `color`: a CSS colour the page shows a swatch of; `instant`: an ISO 8601 time shown also local and relative. */
  | { kind: 'value'; text: string; color?: boolean; instant?: string }
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
  return names.filter((name) => rows.some((row) => name in row)).map((name) => ({ name, label: labelOf(name, schema?.properties?.[name]) }));
}

const COLOR = /^(#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([^()]*\))$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** Seconds in a unit, largest first, for {@link humanDuration}. */
const UNITS: [string, number][] = [['year', 31_557_600], ['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]];
/** The universe's age, about 13.8 billion years, in seconds. */
const UNIVERSE = 4.35e17;

/** A count of seconds as a person says it: "about 3 hours", "longer than the age of the universe". */
export function humanDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds >= UNIVERSE) return 'longer than the age of the universe';
  if (seconds < 1) return 'less than a second';
  const [unit, size] = UNITS.find(([, length]) => seconds >= length)!;
  const count = seconds / size;
  const words = count >= 1e9 ? `${Math.round(count / 1e9).toLocaleString('en')} billion` : count >= 1e6 ? `${Math.round(count / 1e6).toLocaleString('en')} million` : Math.round(count).toLocaleString('en');
  const plural = words === '1' ? unit : `${unit}s`;
  return `${seconds === Math.round(count) * size ? '' : 'about '}${words} ${plural}`;
}

/** A number of seconds named as such (`crackSeconds`): its label and how long it is in words. */
function durationEntry(name: string, value: Json): { label: string; view: View } | undefined {
  if (typeof value !== 'number' || !/.Seconds$/.test(name)) return undefined;
  const stem = humanize(name.slice(0, -'Seconds'.length));
  return { label: /time$/i.test(stem) ? stem : `${stem} time`, view: { kind: 'value', text: `${humanDuration(value)} (${String(value)} s)` } };
}

/** How `value`, an instance of `schema`, is shown. */
export function viewOf(schema: Schema | undefined, value: Json | undefined): View {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return { kind: 'empty' };
  if (typeof value === 'string') {
    const mediaType = schema?.contentMediaType;
    if (schema?.contentEncoding === 'base64') return { kind: 'file', mediaType: mediaType ?? 'application/octet-stream', base64: value };
    if (mediaType === 'image/svg+xml') return { kind: 'image', mediaType, text: value };
    if (value.includes('\n') || value.length > INLINE_TEXT_MAX) return { kind: 'code', text: value };
    if (schema?.enum || alternativesHaveConsts(schema)) return { kind: 'value', text: valueLabel(value, schema) };
    return { kind: 'value', text: value, ...(COLOR.test(value) ? { color: true } : {}), ...(INSTANT.test(value) ? { instant: value } : {}) };
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
      const described = property?.description ? { description: property.description } : {};
      const duration = properties[name] ? durationEntry(name, inner) : undefined;
      if (duration) return { name, ...duration, ...described };
      // Keys of a map (rates by currency, hashes by algorithm) are data: shown as they are.
      const label = properties[name] ? labelOf(name, properties[name]) : name;
      return { name, label, ...described, view: viewOf(property, inner) };
    }),
  };
}

const alternativesHaveConsts = (schema: Schema | undefined): boolean => (schema?.anyOf ?? schema?.oneOf ?? []).some((branch) => branch.const !== undefined);

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

/** The earliest ISO 8601 time in `value` (at any depth) after `now`, in milliseconds: when an answer that lists it starts to be out of date. */
export function firstTimeAfter(value: Json | undefined, now: number): number | undefined {
  let first: number | undefined;
  const walk = (inner: Json | undefined): void => {
    if (typeof inner === 'string') {
      const time = INSTANT.test(inner) ? Date.parse(inner) : NaN;
      if (time > now && (first === undefined || time < first)) first = time;
    } else if (Array.isArray(inner)) inner.forEach(walk);
    else if (isRecord(inner)) Object.values(inner).forEach(walk);
  };
  walk(value);
  return first;
}
