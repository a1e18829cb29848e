/**
 * YAML to the tree and back, with the yaml package (YAML 1.2 core schema). The tree is built from
 * the parsed document's nodes rather than toJS() so that number text survives, aliases are
 * counted as they expand (billion laughs stops at MAX_ALIAS_NODES) and keys stay ordinary strings.
 */
import { Composer, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, stringify, visit, type Alias, type Document, type Node as YamlNode } from 'yaml';
import type { CST, ScalarTag } from 'yaml';
import {
  invalidInput,
  JSON_NUMBER,
  MAX_ALIAS_NODES,
  MAX_DEPTH,
  MAX_YAML_DEPTH,
  RawNumber,
  shorten,
  tooComplex,
  tooDeep,
  unsupportedInput,
  type ObjectValue,
  type Value,
} from './tree.js';

type Token = CST.Token;

// logLevel 'silent': the library's warnings (which quote input lines) are never printed. Repeated
// keys are found in one pass (repeatedKey), not by yaml's uniqueKeys.
const PARSE_OPTIONS = { intAsBigInt: true, logLevel: 'silent', uniqueKeys: false, prettyErrors: false } as const;

/** The library's message without the input excerpt it appends. */
function problemOf(message: string): string {
  const cut = message.search(/ at line \d+, column \d+|:\n/);
  return shorten(cut === -1 ? message : message.slice(0, cut), 120);
}

/** Why reading stopped: the library's message (without the excerpt it appends), and where, as an offset into the text. */
interface ReadError {
  readonly message: string;
  readonly offset: number;
}

/**
 * The documents of `text` up to the parser's first error, and the error read first. yaml's
 * parseAllDocuments reads on past every error: it builds an Error for each (a text of `}` has one a
 * character, about 11 µs apiece) and copies each one's whole line into its message, which is
 * quadratic on one long line (60,000 `}` took 6 s). Here the parser's tokens stop at its first
 * error token, and only the error reported is given a line and column.
 */
function readDocuments(text: string, lines: LineCounter): { documents: Document.Parsed[]; error?: ReadError } {
  let tokenError: ReadError | undefined;
  function* untilError(tokens: Generator<Token>): Generator<Token> {
    for (const token of tokens) {
      if (token.type === 'error') {
        tokenError = { message: token.source === '' ? token.message : `${token.message}: ${JSON.stringify(token.source)}`, offset: token.offset };
        return;
      }
      yield token;
    }
  }
  const documents = Array.from(new Composer(PARSE_OPTIONS).compose(untilError(new Parser(lines.addNewLine).parse(text))));
  // The error that comes first in the text: a document's own, a key it repeats, or the token the
  // reading stopped at.
  let error = tokenError;
  const earlier = (found: ReadError | undefined) => {
    if (found !== undefined && (error === undefined || found.offset <= error.offset)) error = found;
  };
  for (const document of documents) {
    const [first] = document.errors;
    earlier(repeatedKey(document));
    earlier(first === undefined ? undefined : { message: first.message, offset: first.pos[0] });
  }
  return error === undefined ? { documents } : { documents, error };
}

/**
 * The first key of `document` that a map holds twice, as yaml's uniqueKeys tells keys apart (two
 * scalars of the same value), found in one pass: uniqueKeys compares each key with every key before
 * it, so a flat map of 100 KB took 1.7 s to read, 200 KB 5 s (0.2 and 0.3 s in one pass).
 */
function repeatedKey(document: Document.Parsed): ReadError | undefined {
  let offset: number | undefined;
  visit(document, {
    Map: (_key, map) => {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        // NaN is no value yaml's `===` finds twice; a Set would.
        if (!isScalar(key) || Number.isNaN(key.value) || key.range === undefined || key.range === null) continue;
        if (seen.has(key.value)) {
          if (offset === undefined || key.range[0] < offset) offset = key.range[0];
          return;
        }
        seen.add(key.value);
      }
    },
  });
  return offset === undefined ? undefined : { message: 'Map keys must be unique', offset };
}

/** Parses one YAML document into the tree; throws 422 `invalid_input` with line and column. */
export function parseYaml(text: string): Value {
  if (nestingBound(text) > MAX_YAML_DEPTH) throw tooComplex(`The YAML nests deeper than ${MAX_YAML_DEPTH} levels`);
  const lines = new LineCounter();
  const { documents, error } = readDocuments(text, lines);
  if (error !== undefined) {
    // The composer catches its own stack overflow on deep nesting and reports it as an error.
    if (/call stack/i.test(error.message)) throw tooComplex('The YAML nests too deeply to be parsed');
    const { line, col } = lines.linePos(error.offset);
    throw invalidInput('yaml', problemOf(error.message), { line, column: col });
  }
  const [document] = documents;
  if (document === undefined) return null; // an empty stream: nothing but comments or whitespace
  if (documents.length > 1) throw unsupportedInput(`The YAML holds ${documents.length} documents; convert one at a time`);
  return new TreeBuilder(document).build();
}

/**
 * An upper bound of the YAML's nesting, found without parsing: per line, its leading blanks plus
 * every block indicator on it (`-`, `?`, `:` before a blank or the line's end), plus the most open
 * flow brackets. Indicators are counted anywhere on the line because yaml's error recovery nests
 * even invalid text (`a: b: c: …`, `-\t-\t…`). Brackets and indicators inside quoted strings count
 * too, which only refuses lines with hundreds of them.
 */
export function nestingBound(text: string): number {
  let block = 0;
  let flow = 0;
  let deepestFlow = 0;
  let levels = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      atLineStart = true;
      levels = 0;
      continue;
    }
    if (c === 32 || c === 9) {
      if (atLineStart) levels++;
      continue;
    }
    atLineStart = false;
    if (c === 45 || c === 63 || c === 58) {
      const next = text.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 32 || next === 9 || next === 10 || next === 13) block = Math.max(block, ++levels);
    } else if (c === 91 || c === 123) deepestFlow = Math.max(deepestFlow, ++flow);
    else if ((c === 93 || c === 125) && flow > 0) flow--;
  }
  return block + deepestFlow; // blank lines, however indented, nest nothing
}

/**
 * Each alias's node: the last node before it with its anchor, as YAML says. Found in one pass,
 * because yaml's Alias.resolve walks the whole document on every call (quadratic on many aliases).
 */
function aliasTargets(document: Document.Parsed): Map<Alias, YamlNode> {
  const targets = new Map<Alias, YamlNode>();
  const anchors = new Map<string, YamlNode>();
  visit(document, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target !== undefined) targets.set(node, target);
      } else if (node.anchor !== undefined) anchors.set(node.anchor, node);
    },
  });
  return targets;
}

class TreeBuilder {
  private aliasNodes = 0;
  private readonly targets: Map<Alias, YamlNode>;
  constructor(private readonly document: Document.Parsed) {
    this.targets = aliasTargets(document);
  }

  build(): Value {
    return this.node(this.document.contents, 0, false);
  }

  private node(node: unknown, depth: number, inAlias: boolean): Value {
    if (depth > MAX_DEPTH) throw tooDeep();
    if (inAlias && ++this.aliasNodes > MAX_ALIAS_NODES) {
      throw tooComplex(`The YAML aliases expand to more than ${MAX_ALIAS_NODES} nodes (an alias bomb?)`);
    }
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.node(this.resolve(node), depth + 1, true);
    if (isScalar(node)) return scalarValue(node.value, node.source);
    if (isSeq(node)) return node.items.map((item) => this.node(item, depth + 1, inAlias));
    if (isMap(node)) {
      const map: ObjectValue = new Map();
      for (const pair of node.items) {
        const key = this.key(pair.key);
        // Two spellings of one key (`1` and `"1"`); yaml's own repeated keys are refused by repeatedKey.
        if (map.has(key)) throw invalidInput('yaml', `duplicate key ${JSON.stringify(shorten(key))}`);
        map.set(key, this.node(pair.value, depth + 1, inAlias));
      }
      return map;
    }
    throw unsupportedInput('The YAML holds a node of an unknown kind');
  }

  private resolve(alias: Alias): YamlNode {
    const target = this.targets.get(alias);
    if (target === undefined) throw invalidInput('yaml', `unknown alias *${shorten(alias.source)}`);
    return target;
  }

  private key(node: unknown): string {
    const resolved = isAlias(node) ? this.resolve(node) : node;
    if (resolved === null || resolved === undefined) return '';
    if (!isScalar(resolved)) throw unsupportedInput('The YAML has a mapping key that is a collection; JSON and CSV keys are strings');
    const value = scalarValue(resolved.value, resolved.source);
    if (value === null) return ''; // `~: x`, `null: x` and `: x` are the one null key, as in yaml's own toJS
    return value instanceof RawNumber ? value.text : String(value);
  }
}

function scalarValue(value: unknown, source: string | undefined): Value {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return new RawNumber(value.toString());
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupportedInput('The YAML holds .inf or .nan, which JSON and CSV cannot express');
    // Keep the source digits (1.000, 1e3) when they are already JSON; else the value's shortest form.
    return new RawNumber(source !== undefined && JSON_NUMBER.test(source) ? source : String(value));
  }
  // Anything else keeps its source text: a timestamp or !!binary (their tags resolve even in the
  // core schema), the merge key of a `%YAML 1.1` document. Unknown tags (!!js/function …) are
  // strings already: nothing is ever executed.
  return typeof source === 'string' ? source : String(value);
}

/** Writes numbers as their source text; YAML 1.2 reads every JSON number back as the same number. */
const rawNumberTag: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  identify: (value) => value instanceof RawNumber,
  resolve: (text) => text,
  stringify: (item) => (item.value as RawNumber).text,
};

/** Writes the tree as YAML: block style with `indent` spaces, or flow style on one line for 0. */
export function writeYaml(value: Value, indent: number): string {
  const common = { customTags: [rawNumberTag], aliasDuplicateObjects: false, lineWidth: 0 };
  // Maps stay Maps, so `__proto__` is written as a plain key.
  if (indent === 0) return stringify(value, { ...common, collectionStyle: 'flow', defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
  return stringify(value, { ...common, indent });
}
