import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Composer, parseAllDocuments, type CST } from 'yaml';
import { nestingBound, parseYaml, writeYaml } from './yaml.js';
import { MAX_ALIAS_NODES, MAX_YAML_DEPTH, RawNumber } from './tree.js';

describe('data-converter: YAML reader', () => {
  it('keeps big integers and JSON-shaped number text; other notations become their value', () => {
    const value = parseYaml('a: 17478252242305210114\nb: 1.000\nc: 0o17\nd: -1.5e+3\n');
    assert.deepEqual(
      value,
      new Map([
        ['a', new RawNumber('17478252242305210114')],
        ['b', new RawNumber('1.000')],
        ['c', new RawNumber('15')],
        ['d', new RawNumber('-1.5e+3')],
      ]),
    );
  });

  it('expands aliases and keeps << as an ordinary key (YAML 1.2 has no merge keys)', () => {
    assert.deepEqual(
      parseYaml('base: &b {x: 1}\nuse: *b\nm:\n  <<: *b\n'),
      new Map<string, unknown>([
        ['base', new Map([['x', new RawNumber('1')]])],
        ['use', new Map([['x', new RawNumber('1')]])],
        ['m', new Map([['<<', new Map([['x', new RawNumber('1')]])]])],
      ]),
    );
  });

  it('turns scalar keys into their text and refuses a key that two spellings share', () => {
    assert.deepEqual([...(parseYaml('1: a\ntrue: b\n~: c\n') as Map<string, unknown>).keys()], ['1', 'true', '']);
    assert.throws(() => parseYaml('1: a\n"1": b\n'), { code: 'invalid_input', message: 'Invalid YAML: duplicate key "1"' });
  });

  it('never executes a custom tag: !!js/function stays the string it wraps', () => {
    assert.deepEqual(parseYaml('f: !!js/function "function () { throw new Error(1) }"\n'), new Map([['f', 'function () { throw new Error(1) }']]));
    assert.deepEqual(parseYaml('r: !!js/regexp /a/g\nu: !custom {a: 1}\n'), new Map<string, unknown>([['r', '/a/g'], ['u', new Map([['a', new RawNumber('1')]])]]));
  });

  it('keeps the source text of timestamps, !!binary and a %YAML 1.1 merge key instead of Date or byte objects', () => {
    assert.deepEqual(parseYaml('t: !!timestamp 2001-12-14\nb: !!binary aGk=\n'), new Map([['t', '2001-12-14'], ['b', 'aGk=']]));
    // A document that declares YAML 1.1 gets 1.1 scalars (yes is true); << stays a plain key.
    assert.deepEqual(
      parseYaml('%YAML 1.1\n---\nok: yes\nm:\n  <<: {a: 1}\n'),
      new Map<string, unknown>([['ok', true], ['m', new Map([['<<', new Map([['a', new RawNumber('1')]])]])]]),
    );
  });

  it('never prints the library warnings (they quote the input)', () => {
    const calls: unknown[] = [];
    const { emitWarning } = process;
    const { warn } = console;
    process.emitWarning = (...args: unknown[]) => void calls.push(args);
    console.warn = (...args: unknown[]) => void calls.push(args);
    try {
      parseYaml('secret: !!unknown-tag hunter2\nother: !!binary aGk=\n');
    } finally {
      process.emitWarning = emitWarning;
      console.warn = warn;
    }
    assert.deepEqual(calls, []);
  });

  it(`stops a billion-laughs alias bomb after ${MAX_ALIAS_NODES} expanded nodes with input_too_complex`, () => {
    // Nine levels of nine aliases would expand to 9^9 ≈ 387 million strings.
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      levels.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    assert.throws(() => parseYaml(levels.join('\n')), { code: 'input_too_complex' });
  });

  it(`refuses nesting deeper than ${MAX_YAML_DEPTH} before the parser recurses into it`, () => {
    for (const text of ['['.repeat(50_000), '- '.repeat(5_000) + 'x', Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')]) {
      assert.throws(() => parseYaml(text), { code: 'input_too_complex', message: `The YAML nests deeper than ${MAX_YAML_DEPTH} levels` });
    }
    const deepest = '['.repeat(MAX_YAML_DEPTH) + ']'.repeat(MAX_YAML_DEPTH);
    let value = parseYaml(deepest);
    for (let level = 1; level < MAX_YAML_DEPTH; level++) value = (value as unknown[])[0] as typeof value;
    assert.deepEqual(value, []);
  });

  it('bounds nesting from above: leading blanks and indicators per line plus open brackets', () => {
    assert.equal(nestingBound('a:\n  b:\n    - c\n'), 5); // line 3: 4 blanks + "-" (the real depth is 3)
    assert.equal(nestingBound('- - [ {a: [1]} ]'), 6); // "-", "-", ":" on one line + three open brackets
    assert.equal(nestingBound('x: "]]]" [[1]]'), 3); // closers without openers never go below zero
    assert.equal(nestingBound(`a: 1\n${' '.repeat(5000)}\n`), 1); // a blank line nests nothing, however indented
    // yaml's error recovery nests invalid text too, so indicators count anywhere on a line.
    assert.equal(nestingBound('a: b: c: d'), 3);
    assert.equal(nestingBound('-\t-\t-\tx'), 3);
  });

  it('refuses a text of one error a character after its first: the rest is never composed', () => {
    // yaml's parseAllDocuments composes every token after an error too, an Error and a copy of the
    // line for each: 60,000 "}" on one line held the thread 6 s. Count the tokens composed.
    const next = Composer.prototype.next;
    let composed = 0;
    Composer.prototype.next = function* (this: Composer, token: CST.Token) {
      composed++;
      yield* next.call(this, token);
    };
    try {
      assert.throws(() => parseYaml('}'.repeat(60_000)), { code: 'invalid_input', message: 'Invalid YAML: Unexpected flow-map-end token in YAML document: "}" at line 1, column 1' });
    } finally {
      Composer.prototype.next = next;
    }
    assert.ok(composed < 5, `${composed} tokens composed`);
  });

  it("reports the first error with yaml's own message and place, as its parseAllDocuments finds it", () => {
    const invalid = ['a: 1\na: 2\n', '}', ']]]', 'a: [1, 2\n', 'k: "open\n', '- a\nb: c\n', '{a: 1}}', 'a:\n  - b\n  c: d\n', 'a: b: c\n', '"a" "b"\n', 'a: @b\n', '[a, b]]\nc: d\n', '---\na: 1\n...\n]\n', 'a:\n  b\n c: d\n'];
    for (const text of invalid) {
      const [error] = parseAllDocuments(text, { intAsBigInt: true, logLevel: 'silent', uniqueKeys: true }).flatMap((document) => document.errors);
      assert.ok(error?.linePos !== undefined, text);
      const problem = error.message.slice(0, error.message.search(/ at line \d+, column \d+|:\n/));
      const expected = `Invalid YAML: ${problem} at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
      assert.throws(() => parseYaml(text), { code: 'invalid_input', message: expected }, text);
    }
  });
});

describe('data-converter: YAML writer', () => {
  it('writes numbers as their text and quotes strings that would read back as something else', () => {
    const tree = new Map<string, RawNumber | string | null | boolean>([
      ['n', new RawNumber('17478252242305210114')],
      ['s', '007'],
      ['t', 'true'],
      ['e', ''],
      ['z', null],
      ['b', false],
    ]);
    assert.equal(writeYaml(tree, 2), 'n: 17478252242305210114\ns: "007"\nt: "true"\ne: ""\nz: null\nb: false\n');
  });

  it('uses block scalars for multi-line strings, and double quotes on one line for indent 0', () => {
    const tree = new Map([['text', 'one\ntwo']]);
    assert.equal(writeYaml(tree, 2), 'text: |-\n  one\n  two\n');
    assert.equal(writeYaml(tree, 0), '{ text: "one\\ntwo" }\n');
  });
});
