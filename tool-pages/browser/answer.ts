/**
 * A View (tool-pages/shared/answers.ts) → elements: images (saved as SVG or PNG), downloads, code
 * blocks, diffs, tables, colour swatches and times shown in the reader's time zone, named, and
 * relative too. Copy buttons: one for the whole answer (tool.ts adds it) and one for every value
 * and code block outside a table; an answer of one value has only the whole answer's.
 */
import { textOf, type DiffPart, type DiffSide, type View } from '../shared/answers.js';
import { isRecord, type Json } from '../shared/schema.js';
import { swatch } from './color.js';
import { copyButton, downloadButton, h } from './dom.js';
import { readerZone } from './form.js';

/** Names the files the download buttons save: `<group>-<operation>`. */
export interface AnswerContext {
  readonly fileName: string;
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A file's extension from its first bytes (the schema may only say `image/*`). */
function extensionOf(bytes: Uint8Array, mediaType: string): string {
  const starts = (...prefix: number[]): boolean => prefix.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpg';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP') return 'webp';
  const subtype = mediaType.split('/')[1] ?? '';
  return /^[a-z0-9]+$/.test(subtype) ? subtype : 'bin';
}

const diffPart = (part: DiffPart): HTMLElement => (part.type === 'add' ? h('ins', {}, part.value) : part.type === 'del' ? h('del', {}, part.value) : h('span', {}, part.value));
/** A row's change in words for screen readers; sighted readers see it as colour. */
const CHANGES: Record<string, string> = { mod: 'changed', del: 'removed', add: 'added' };
function diffText(side: DiffSide | undefined, type: string): (Node | string)[] {
  if (side === undefined) return [];
  const said = CHANGES[type] ? [h('span', { class: 'offscreen' }, `${CHANGES[type]}: `)] : [];
  return [...said, ...(side.parts ? side.parts.map(diffPart) : [side.text])];
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [['year', 31_557_600_000], ['month', 2_629_800_000], ['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]];

/** "Thu, 18 Jan 2018, 07:00:22 in your time zone, Asia/Kolkata · 8 years ago" beside an ISO 8601 time (which is UTC or carries its offset). */
function instantNote(iso: string): HTMLElement | null {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const difference = time - Date.now();
  const [unit, size] = STEPS.find(([, length]) => Math.abs(difference) >= length) ?? ['second', 1000];
  const local = new Date(time).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return h('span', { class: 'instant' }, h('time', { datetime: iso }, `${local} in your time zone, ${readerZone()}`), ` · ${relative.format(Math.round(difference / size), unit)}`);
}

/** An SVG drawn on a canvas at 8 times its size (at least 512 px), as PNG bytes: for the places that take no SVG. */
async function pngOf(svg: string): Promise<Blob> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const scale = Math.max(8, Math.ceil(512 / Math.max(1, image.naturalWidth)));
  const canvas = h('canvas', {});
  canvas.width = Math.max(1, image.naturalWidth) * scale;
  canvas.height = Math.max(1, image.naturalHeight) * scale;
  const context2d = canvas.getContext('2d')!;
  context2d.imageSmoothingEnabled = false;
  context2d.fillStyle = '#ffffff';
  context2d.fillRect(0, 0, canvas.width, canvas.height);
  context2d.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made'))), 'image/png'));
}

/** How a view is drawn: `compact` (inside tables) leaves out copy buttons; `copy: false` leaves out the value's own (the answer's button copies it). */
export interface RenderOptions {
  readonly compact?: boolean;
  readonly copy?: boolean;
}

/** Draws `view`. */
export function render(view: View, label: string, context: AnswerContext, options: RenderOptions = {}): HTMLElement {
  const compact = options.compact === true;
  switch (view.kind) {
    case 'empty':
      return h('span', { class: 'empty' }, 'none');
    case 'value': {
      const color = view.color ? swatch(view.text) : null;
      const instant = view.instant ? instantNote(view.instant) : null;
      const copy = compact || options.copy === false ? null : copyButton(() => view.text, label, 'small');
      if (!color && !instant && !copy) return h('span', { class: 'value' }, view.text);
      return h('span', { class: 'value-line' }, color, h('span', { class: 'value' }, view.text), copy, instant);
    }
    case 'code':
      return h('div', { class: 'code' }, h('pre', { tabindex: '0', 'aria-label': label }, h('code', {}, view.text)), compact ? null : copyButton(() => view.text, label));
    case 'image': {
      const source = `data:${view.mediaType};charset=utf-8,${encodeURIComponent(view.text)}`;
      const svg = view.mediaType === 'image/svg+xml';
      const kind = svg ? 'SVG' : 'image';
      const png = svg ? downloadButton(() => pngOf(view.text), 'image/png', `${context.fileName}.png`, 'PNG') : null;
      return h('figure', { class: 'image' }, h('img', { src: source, alt: `${label}: the answer as an image` }), h('div', { class: 'buttons' }, downloadButton(view.text, view.mediaType, `${context.fileName}.svg`, kind), png, copyButton(() => view.text, `${kind} markup`)));
    }
    case 'file': {
      const bytes = bytesOf(view.base64);
      const name = `${context.fileName}.${extensionOf(bytes, view.mediaType)}`;
      return h('div', { class: 'file' }, h('span', {}, `${bytes.length.toLocaleString('en')} bytes `), downloadButton(bytes as BlobPart, view.mediaType.includes('*') ? 'application/octet-stream' : view.mediaType, name, name));
    }
    case 'parts':
      return h('p', { class: 'diff-inline' }, ...view.parts.map(diffPart));
    case 'side-by-side':
      return h(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label },
        h(
          'table',
          { class: 'diff' },
          h('caption', { class: 'offscreen' }, `${label}: left and right side by side`),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Left'), h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Right'))),
          h('tbody', {}, ...view.rows.map((row) => h('tr', { class: `diff-${row.type}` }, h('td', { class: 'no' }, String(row.left?.no ?? '')), h('td', { class: 'left' }, ...diffText(row.left, row.type)), h('td', { class: 'no' }, String(row.right?.no ?? '')), h('td', { class: 'right' }, ...diffText(row.right, row.type))))),
        ),
      );
    case 'table':
      return h(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label },
        h(
          'table',
          {},
          h('caption', { class: 'offscreen' }, label),
          h('thead', {}, h('tr', {}, ...view.columns.map((column) => h('th', { scope: 'col' }, column.label)))),
          h('tbody', {}, ...view.rows.map((row) => h('tr', {}, ...row.map((cell, index) => h('td', {}, render(cell, view.columns[index]!.label, context, { compact: true })))))),
        ),
      );
    case 'list': {
      const swatches = view.items.every((item) => item.kind === 'value' && item.color);
      return h('div', { class: 'list' }, h('ul', { class: swatches ? 'swatches' : undefined }, ...view.items.map((item, index) => h('li', {}, render(item, `${label} ${index + 1}`, context, { compact })))));
    }
    case 'record':
      return h(
        'dl',
        { class: 'record' },
        ...view.entries.flatMap((entry) => [h('dt', { title: entry.description }, entry.label), h('dd', {}, render(entry.view, entry.label, context, options))]),
      );
  }
}

/** True when the answer is one value: the answer's Copy button copies it bare, so it needs no button of its own. */
export const isLoneValue = (view: View): boolean => view.kind === 'record' && view.entries.length === 1 && view.entries[0]!.view.kind === 'value';

/** The text the answer's one Copy button copies: a lone value by itself, anything else in labelled lines. */
export function answerText(view: View): string {
  if (view.kind === 'record' && view.entries.length === 1) return textOf(view.entries[0]!.view);
  return textOf(view);
}

/** The text of the request with each match marked, for a `text` searched by a pattern whose answer lists `matches` with `index` and `end`. */
export function highlighted(text: string, matches: readonly { index: number; end: number }[]): HTMLElement {
  const parts: (Node | string)[] = [];
  let at = 0;
  for (const { index, end } of matches) {
    if (index < at || end > text.length) continue;
    parts.push(text.slice(at, index), h('mark', {}, text.slice(index, end) || '\u200b'));
    at = end;
  }
  parts.push(text.slice(at));
  return h('section', { class: 'highlight', 'aria-labelledby': 'highlight-heading' }, h('h3', { id: 'highlight-heading' }, `Matches in the text (${matches.length})`), h('pre', { tabindex: '0', 'aria-label': 'The text with its matches marked' }, ...parts));
}

/** The answer as JSON, folded, with its own Copy button; `what` names it ("The answer of step 2"). */
export function rawJson(value: Json | undefined, what = 'The answer'): HTMLElement {
  const text = JSON.stringify(value, null, 2);
  return h('details', { class: 'raw' }, h('summary', {}, `${what} as JSON`), h('div', { class: 'code' }, h('pre', { tabindex: '0', 'aria-label': `${what} as JSON` }, h('code', {}, text)), copyButton(() => text, `${what.charAt(0).toLowerCase()}${what.slice(1)} as JSON`)));
}

/** The matches of a pattern in the request's `text`, when the answer lists them with offsets. */
export function matchesIn(body: Json, answer: Json | undefined): { text: string; matches: { index: number; end: number }[] } | undefined {
  if (!isRecord(body) || typeof body.text !== 'string' || !isRecord(answer) || !Array.isArray(answer.matches)) return undefined;
  const matches = answer.matches.filter(isRecord);
  if (matches.length === 0 || !matches.every((match) => typeof match.index === 'number' && typeof match.end === 'number')) return undefined;
  return { text: body.text, matches: matches as unknown as { index: number; end: number }[] };
}
