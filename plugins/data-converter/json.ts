/**
 * Strict JSON (RFC 8259) to the tree and back. Hand-written because JSON.parse rounds big integers,
 * cannot report duplicate keys, and words its errors differently on each Node version (quoting the
 * input on some); this parser keeps number text, is iterative (no stack overflow at any depth) and
 * gives line and column.
 */
import { invalidInput, lineColumn, MAX_DEPTH, MAX_OUTPUT_CHARS, outputTooLarge, RawNumber, shorten, tooDeep, type ObjectValue, type Value } from './tree.js';

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

type Frame = { readonly items: Value[] } | { readonly map: ObjectValue; key: string };

/** Parses `text` as one JSON value; throws 422 `invalid_input` with line and column. */
export function parseJson(text: string): Value {
  let i = 0;
  const fail = (problem: string, at = i): never => {
    throw invalidInput('json', problem, lineColumn(text, at));
  };
  const skipSpace = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const readString = (): string => {
    const start = i;
    let escaped = false;
    for (i++; ; i++) {
      if (i >= text.length) fail('unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) fail('control character in a string');
      if (c === 92) {
        escaped = true;
        const next = text[i + 1] ?? '';
        if (next === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 5;
        } else if (ESCAPES.has(next)) i++;
        else fail('bad escape in a string');
      }
    }
    i++;
    // Validated above, so JSON.parse only decodes the escapes (lone surrogates included).
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const readScalar = (): Value => {
    const c = text[i];
    if (c === '"') return readString();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match === null) return fail(i >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(shorten(c ?? '', 1))}`);
    i += match[0].length;
    return new RawNumber(match[0]);
  };

  const stack: Frame[] = [];
  let root: Value | undefined;
  // Reads a value (opening containers), then closes every container that ends after it.
  for (;;) {
    skipSpace();
    let value: Value | undefined;
    const c = text[i];
    if (c === '[' || c === '{') {
      if (stack.length >= MAX_DEPTH) throw tooDeep();
      i++;
      skipSpace();
      if (c === '[') {
        const items: Value[] = [];
        if (text[i] === ']') {
          i++;
          value = items;
        } else {
          stack.push({ items });
          continue;
        }
      } else {
        const map: ObjectValue = new Map();
        if (text[i] === '}') {
          i++;
          value = map;
        } else {
          stack.push({ map, key: readKey(map) });
          continue;
        }
      }
    } else value = readScalar();
    // Attach the value and close containers.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) {
        root = value;
        break;
      }
      if ('items' in top) top.items.push(value);
      else top.map.set(top.key, value);
      skipSpace();
      const next = text[i];
      if (next === ',') {
        i++;
        if ('map' in top) {
          skipSpace();
          top.key = readKey(top.map);
        }
        break;
      }
      const closer = 'items' in top ? ']' : '}';
      if (next !== closer) fail(next === undefined ? 'unexpected end of input' : `expected "," or "${closer}"`);
      i++;
      stack.pop();
      value = 'items' in top ? top.items : top.map;
    }
    if (root !== undefined) break;
  }
  skipSpace();
  if (i < text.length) fail('unexpected text after the JSON value');
  return root;

  function readKey(map: ObjectValue): string {
    if (text[i] !== '"') fail('expected a property name in double quotes');
    const at = i;
    const key = readString();
    if (map.has(key)) fail(`duplicate key ${JSON.stringify(shorten(key))}`, at);
    skipSpace();
    if (text[i] !== ':') fail('expected ":" after a property name');
    i++;
    return key;
  }
}

/** The text of a scalar in JSON. */
function scalarJson(value: Exclude<Value, Value[] | ObjectValue>): string {
  if (value instanceof RawNumber) return value.text;
  return JSON.stringify(value); // strings (lone surrogates escaped), booleans, null
}

/** Writes the tree as JSON: `indent` 0 gives one line; the layout is JSON.stringify's. */
export function writeJson(value: Value, indent: number): string {
  const parts: string[] = [];
  let length = 0;
  const push = (part: string): void => {
    length += part.length;
    if (length > MAX_OUTPUT_CHARS) throw outputTooLarge();
    parts.push(part);
  };
  const colon = indent === 0 ? ':' : ': ';
  const write = (node: Value, depth: number): void => {
    if (depth > MAX_DEPTH) throw tooDeep();
    const isArray = Array.isArray(node);
    if (!isArray && !(node instanceof Map)) return push(scalarJson(node));
    const size = isArray ? node.length : node.size;
    if (size === 0) return push(isArray ? '[]' : '{}');
    const inner = indent === 0 ? '' : `\n${' '.repeat(indent * (depth + 1))}`;
    push(isArray ? '[' : '{');
    let first = true;
    const entries: Iterable<[string | undefined, Value]> = isArray ? node.map((item) => [undefined, item]) : node;
    for (const [key, item] of entries) {
      push(first ? inner : `,${inner}`);
      first = false;
      if (key !== undefined) push(JSON.stringify(key) + colon);
      write(item, depth + 1);
    }
    push(indent === 0 ? '' : `\n${' '.repeat(indent * depth)}`);
    push(isArray ? ']' : '}');
  };
  write(value, 0);
  return parts.join('');
}
