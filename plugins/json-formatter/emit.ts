/**
 * Lays scanned tokens out again, pretty or minified, in source order or with object members sorted.
 * Two passes: `measure` computes the exact output length (member order does not change it), so an
 * answer too large is refused before a byte is written; `write` fills a buffer of that size. Both
 * are loops over the tokens; sorting walks the document with an explicit stack. No recursion.
 */
import { grown, Kind, type Tokens } from './scan.js';

/** How to lay the document out. */
export interface Layout {
  /** One level of indentation (`''` minifies: no newlines, no spaces). */
  readonly indent: string;
  readonly sortKeys: boolean;
}

/** What /format reports about the document. */
export interface Stats {
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  keys: number;
  depth: number;
}

const isOpen = (kind: number): boolean => kind === Kind.ObjectOpen || kind === Kind.ArrayOpen;

/** The token after the value that starts at `token`. */
const after = (tokens: Tokens, token: number): number => (isOpen(tokens.kind[token]) ? tokens.end[token] + 1 : token + 1);

/** Output length in UTF-16 code units, plus the stats that come for free on the same walk. */
export function measure(tokens: Tokens, indentWidth: number, pretty: boolean): { length: number; stats: Stats } {
  const { kind, start, end, count } = tokens;
  let length = 0;
  let keys = 0;
  let depth = 0;
  let maxDepth = 0;
  /** Per open container: 1 for an array, so a value directly inside it is an element. */
  let inArray: Uint8Array = new Uint8Array(256);
  for (let token = 0; token < count; token += 1) {
    const tokenKind = kind[token];
    const isChild = tokenKind === Kind.Key || (depth > 0 && inArray[depth - 1] === 1 && tokenKind !== Kind.ArrayClose);
    if (isChild) {
      // A separating comma before every child but the first, then its line.
      if (kind[token - 1] !== Kind.ObjectOpen && kind[token - 1] !== Kind.ArrayOpen) length += 1;
      if (pretty) length += 1 + indentWidth * depth;
    }
    switch (tokenKind) {
      case Kind.ObjectOpen:
      case Kind.ArrayOpen:
        length += 2;
        // The closing bracket of a non-empty container sits on its own line.
        if (pretty && end[token] !== token + 1) length += 1 + indentWidth * depth;
        if (depth === inArray.length) inArray = grownFlags(inArray);
        inArray[depth] = tokenKind === Kind.ArrayOpen ? 1 : 0;
        depth += 1;
        if (depth > maxDepth) maxDepth = depth;
        break;
      case Kind.ObjectClose:
      case Kind.ArrayClose:
        depth -= 1;
        break;
      case Kind.Key:
        keys += 1;
        length += end[token] - start[token] + (pretty ? 2 : 1);
        break;
      default:
        length += end[token] - start[token];
    }
  }
  return { length, stats: { type: rootType(tokens), keys, depth: maxDepth } };
}

function rootType(tokens: Tokens): Stats['type'] {
  switch (tokens.kind[0]) {
    case Kind.ObjectOpen:
      return 'object';
    case Kind.ArrayOpen:
      return 'array';
    case Kind.String:
      return 'string';
    case Kind.Number:
      return 'number';
    default:
      return tokens.text.startsWith('null', tokens.start[0]) ? 'null' : 'boolean';
  }
}

/** The member keys of the object opened at `open`, sorted by decoded name, duplicates in source order. */
function sortedMembers(tokens: Tokens, open: number): number[] {
  const keys: number[] = [];
  const names: string[] = [];
  const close = tokens.end[open];
  for (let key = open + 1; key < close; key = after(tokens, key + 1)) {
    const lexeme = tokens.text.slice(tokens.start[key], tokens.end[key]);
    keys.push(key);
    // The scanner validated the lexeme, so JSON.parse only decodes escapes (and is skipped without any).
    names.push(lexeme.includes('\\') ? (JSON.parse(lexeme) as string) : lexeme.slice(1, -1));
  }
  // Sorting positions in a typed array is about twice as fast as sorting objects; the position
  // breaks ties, so duplicate names keep their source order.
  const positions = new Uint32Array(keys.length).map((_, position) => position);
  positions.sort((a, b) => {
    const left = names[a];
    const right = names[b];
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  return Array.from(positions, (position) => keys[position]);
}

/**
 * The tokens in output order when members are sorted: still a well-formed token stream (each member
 * is its key followed by its whole value), so {@link write} lays it out like the source order.
 */
function sortedOrder(tokens: Tokens): Uint32Array {
  const { kind, end } = tokens;
  const order = new Uint32Array(tokens.count);
  let written = 0;
  /** Per open container: its open token, where we are (next element token, or index into its sorted members). */
  let opens: Uint32Array = new Uint32Array(64);
  let cursors: Uint32Array = new Uint32Array(64);
  const members: (number[] | undefined)[] = [];
  let depth = 0;
  let value = 0;
  for (;;) {
    order[written++] = value;
    if (isOpen(kind[value])) {
      if (depth === opens.length) {
        opens = grown(opens);
        cursors = grown(cursors);
      }
      opens[depth] = value;
      const isObject = kind[value] === Kind.ObjectOpen;
      members[depth] = isObject ? sortedMembers(tokens, value) : undefined;
      cursors[depth] = isObject ? 0 : value + 1;
      depth += 1;
    }
    // Find the next value to write, closing finished containers on the way.
    let next = -1;
    while (depth > 0 && next < 0) {
      const frame = depth - 1;
      const close = end[opens[frame]];
      const keys = members[frame];
      if (keys === undefined ? cursors[frame] === close : cursors[frame] === keys.length) {
        order[written++] = close;
        members[frame] = undefined;
        depth -= 1;
      } else if (keys === undefined) {
        next = cursors[frame];
        cursors[frame] = after(tokens, next);
      } else {
        const key = keys[cursors[frame]++];
        order[written++] = key;
        next = key + 1;
      }
    }
    if (next < 0) return order;
    value = next;
  }
}

/** True when some object has two members or more: only then can sorting change anything. */
function hasMembersToSort(tokens: Tokens): boolean {
  for (let token = 1; token < tokens.count; token += 1) {
    if (tokens.kind[token] === Kind.Key && tokens.kind[token - 1] !== Kind.ObjectOpen) return true;
  }
  return false;
}

/** Writes the document laid out as `layout` says; `length` must come from {@link measure}. */
export function write(tokens: Tokens, layout: Layout, length: number): string {
  const { text, kind, start, end, count } = tokens;
  const order = layout.sortKeys && hasMembersToSort(tokens) ? sortedOrder(tokens) : undefined;
  const out = new Uint16Array(length);
  const pretty = layout.indent !== '';
  // An indent is one character repeated ("  ", "    " or a tab).
  const indentCode = layout.indent.charCodeAt(0);
  const indentWidth = layout.indent.length;
  let at = 0;
  let depth = 0;
  let previous = 0; // kind of the token written last
  /** Per open container: 1 for an array, so a value directly inside it is an element. */
  let inArray: Uint8Array = new Uint8Array(64);
  for (let j = 0; j < count; j += 1) {
    const token = order === undefined ? j : order[j];
    const tokenKind = kind[token];
    const closes = tokenKind === Kind.ObjectClose || tokenKind === Kind.ArrayClose;
    if (closes) depth -= 1;
    const isChild = tokenKind === Kind.Key || (!closes && depth > 0 && inArray[depth - 1] === 1);
    const afterOpen = previous === Kind.ObjectOpen || previous === Kind.ArrayOpen;
    if (isChild && !afterOpen) out[at++] = 0x2c;
    if (pretty && (isChild || (closes && !afterOpen))) {
      out[at++] = 0x0a;
      for (let n = indentWidth * depth; n > 0; n -= 1) out[at++] = indentCode;
    }
    if (isOpen(tokenKind)) {
      out[at++] = tokenKind === Kind.ObjectOpen ? 0x7b : 0x5b;
      if (depth === inArray.length) inArray = grownFlags(inArray);
      inArray[depth] = tokenKind === Kind.ArrayOpen ? 1 : 0;
      depth += 1;
    } else if (closes) {
      out[at++] = tokenKind === Kind.ObjectClose ? 0x7d : 0x5d;
    } else {
      for (let i = start[token]; i < end[token]; i += 1) out[at++] = text.charCodeAt(i);
      if (tokenKind === Kind.Key) {
        out[at++] = 0x3a;
        if (pretty) out[at++] = 0x20;
      }
    }
    previous = tokenKind;
  }
  if (at !== length) throw new Error(`layout wrote ${at} code units, measured ${length}`);
  const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  // utf16le means little-endian; a Uint16Array is in the host's order.
  if (BIG_ENDIAN) bytes.swap16();
  return bytes.toString('utf16le');
}

const BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;

function grownFlags(flags: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(flags.length * 2);
  bigger.set(flags);
  return bigger;
}
