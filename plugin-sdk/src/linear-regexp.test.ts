import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definePlugin, defineOperation } from './define.js';
import { LinearRegExp, linearPatternProblem, MAX_PROGRAM_SIZE, PatternError, withLinearRegExp } from './linear-regexp.js';
import { Type } from './typebox.js';
import { compileSchema } from './validation.js';

/**
 * Patterns with the texts each is tried on: JavaScript's own engine is the reference, for these
 * patterns, which do not backtrack badly. They cover what RE2 writes or reads otherwise than
 * JavaScript: `\s` and `.` (their sets of characters), escapes in and out of classes, classes that
 * match everything or nothing, `\p{…}` by every kind of name, code points above U+FFFF with and
 * without the u flag, anchors, boundaries, lookbehind, and the leading lookaheads the engine splits off.
 */
const SAME_AS_JAVASCRIPT: readonly [source: string, flags: string, texts: readonly string[]][] = [
  ['^\\s$', 'u', ['\u00a0', '\v', '\f', '\u2028', '\ufeff', '\u3000', ' ', '\t', '\u0085', 'a']],
  ['^\\S+$', 'u', ['\u00a0a', 'ab', '\u0085']],
  ['^[^\\s\\d]$', 'u', ['\u00a0', 'a', '1']],
  ['^[\\S\\d]$', 'u', ['\u00a0', 'a', '1', ' ']],
  ['^[\\W]$', 'u', ['_', '-', 'é']],
  ['^\\D\\d$', '', ['a1', '11', '٣1']],
  ['^.$', 'u', ['\r', '\n', '\u2028', '\u2029', 'a', '\u{1F600}']],
  ['^.$', 's', ['\r', '\n', '\u2028']],
  ['^[^]$', 'u', ['\n', '']],
  ['^[]$', 'u', ['', 'a']],
  ['(?!)', 'u', ['a', '']],
  ['^\\p{L}+$', 'u', ['héllo', 'ab1']],
  ['^\\p{Letter}\\p{Nd}$', 'u', ['a1', 'a٣', '1a']],
  ['^\\p{Script=Greek}+$', 'u', ['αβ', 'ab']],
  ['^\\p{sc=Cyrillic}$', 'u', ['ж', 'z']],
  ['^[\\P{Lu}]$', 'u', ['a', 'A']],
  ['^\\P{Lu}$', 'u', ['a', 'A']],
  ['^\\p{ASCII}\\P{ASCII}$', 'u', ['aé', 'ab']],
  ['^\\p{Any}$', 'u', ['\n', '\u{10FFFF}']],
  ['^\\p{Assigned}$', 'u', ['a', '\u0378']],
  ['^\\u{1F600}$', 'u', ['\u{1F600}']],
  ['^\\uD83D\\uDE00$', 'u', ['\u{1F600}']],
  ['^\\uD83D\\uDE00$', '', ['\u{1F600}']],
  ['^\u{1F600}x$', '', ['\u{1F600}x']],
  ['^\\x41\\cJ\\0$', 'u', ['A\n\0']],
  ['a$', 'u', ['a\n', 'a']],
  ['^\\/\\$\\.\\*$', 'u', ['/$.*', '/$a*']],
  ['^[\\b][\\-\\]]$', 'u', ['\b-', '\b]', 'b-']],
  ['^[a-z]+$', 'iu', ['ABC', 'aBc', 'ab1']],
  ['\\bfoo\\b', 'u', ['a foo b', 'afoo', 'foo_']],
  ['\\Boo', 'u', ['foo', 'oo']],
  ['^a{2,3}$', 'u', ['a', 'aa', 'aaa', 'aaaa']],
  ['^(?:ab|cd){2}$', 'u', ['abcd', 'ab', 'cdcd']],
  ['(?<=\\$)\\d+', 'u', ['$12', '12']],
  ['(?<!-)\\b\\d+', 'u', ['-12', '12']],
  ['^(?=.*\\d)(?!.*x)[a-z0-9]{3}$', 'u', ['ab1', 'abc', 'ax1', 'a1']],
  ['^(?=[A-Z])(?=.*[a-z])\\w+$', '', ['Ab', 'ab', 'AB']],
];

describe('LinearRegExp', () => {
  it('matches as JavaScript does: every pattern on every text', () => {
    const differences: string[] = [];
    for (const [source, flags, texts] of SAME_AS_JAVASCRIPT) {
      const linear = new LinearRegExp(source, flags);
      const native = new RegExp(source, flags);
      for (const text of texts) if (linear.test(text) !== native.test(text)) differences.push(`/${source}/${flags} on ${JSON.stringify(text)}`);
    }
    assert.deepEqual(differences, []);
  });

  it('answers exec as RegExp does: the match, its groups by number and name, where it starts', () => {
    for (const [source, flags, text] of [
      ['(?<year>\\d{4})-(\\d{2})?', 'u', 'on 2024-'],
      ['a+?', '', 'xaaa'],
      ['^(?=a)(?<run>a+)$', '', 'aaa'],
      ['^(?=a)(?<run>a+)$', '', 'baa'],
    ] as const) {
      const native = new RegExp(source, flags).exec(text);
      const linear = new LinearRegExp(source, flags).exec(text);
      assert.deepEqual(linear === null ? null : [[...linear], linear.index, { ...linear.groups }], native === null ? null : [[...native], native.index, { ...native.groups }], source);
    }
  });

  it('without the u flag, still counts a character above U+FFFF as one and folds case as with u', () => {
    // Where JavaScript without u reads UTF-16 units and folds case by upper-casing, RE2 reads code points and folds as Unicode does.
    assert.deepEqual([new LinearRegExp('^.$', '').test('\u{1F600}'), /^.$/.test('\u{1F600}'), /^.$/u.test('\u{1F600}')], [true, false, true]);
    assert.deepEqual([new LinearRegExp('^s$', 'i').test('\u017F'), /^s$/i.test('\u017F'), /^s$/iu.test('\u017F')], [true, false, true]);
  });

  it('takes a RegExp, or a structured clone of one, with its flags', () => {
    assert.equal(new LinearRegExp(/^abc$/i).test('ABC'), true);
    assert.equal(new LinearRegExp(structuredClone(/^abc$/i)).test('ABC'), true);
    assert.deepEqual([new LinearRegExp(/x/gi).flags, new LinearRegExp('x').flags, String(new LinearRegExp('a/b', 'u'))], ['gi', '', '/a/b/u']);
  });

  it('refuses, saying why, what RE2 cannot match in linear time', () => {
    const refusals: [source: string, flags: string, why: string][] = [
      ['(a)\\1', 'u', 'uses a backreference (\\1), which no linear-time engine can match'],
      ['(?<x>a)\\k<x>', 'u', 'uses a backreference (\\k<x>), which no linear-time engine can match'],
      ['a(?=b)', 'u', 'uses a lookahead ((?=b)) other than at the very start (^(?=…) or ^(?!…))'],
      ['^x|(?=b)', 'u', 'uses a lookahead ((?=b)) other than at the very start (^(?=…) or ^(?!…))'],
      ['^(?=(a))a', 'u', 'captures inside a lookahead ((?=(a))); use (?:…) there'],
      ['^x$', 'm', 'uses the m flag (RE2 ends lines at \\n only; match line starts with (?:^|\\n))'],
      ['(?i:a)b', 'u', 'uses a modifier group such as (?i:…)'],
      ['[\\p{L}--[a-z]]', 'v', "uses the v flag's set operations (&& or --)"],
      ['[\\q{abc}]', 'v', "uses the v flag's nested classes or strings"],
      ['\\p{RGI_Emoji}', 'v', 'uses a property of strings (\\p{RGI_Emoji})'],
      ['\\p{Script_Extensions=Greek}', 'u', 'uses \\p{Script_Extensions=Greek}: RE2 has no Script_Extensions'],
      ['a{1001}', 'u', 'is refused by RE2 (invalid repeat count: `{1001}`)'],
      ['(?:(?:a{100}){100}){100}', 'u', 'is refused by RE2 (invalid repeat count: `{100}`)'],
      ['(?<=(a))b', 'u', 'is refused by RE2 (invalid capture in lookbehind: `(?<=(a))b`)'],
      ['(', 'u', 'is not a regular expression: Invalid regular expression: /(/u: Unterminated group'],
      // Linear, but a thousand steps for every character: 16 such alternatives took seconds on 4,096 characters.
      ['a[\\s\\S]{1000}[ac]b[ac]', 'u', "compiles to 1006 instructions of RE2's program, more than 500, and each character of a text may cost a step of each (bound its counted repetitions, or split it)"],
      ['^(?=[\\s\\S]{300})[\\s\\S]{300}', 'u', "compiles to 610 instructions of RE2's program, more than 500, and each character of a text may cost a step of each (bound its counted repetitions, or split it)"],
    ];
    for (const [source, flags, why] of refusals) {
      assert.equal(linearPatternProblem(source, flags), why, source);
      assert.throws(() => new LinearRegExp(source, flags), (error: unknown) => error instanceof PatternError && error.message === why);
    }
    assert.equal(linearPatternProblem('^(a+)+$'), undefined);
    assert.equal(linearPatternProblem('^a{490}$'), undefined, `a pattern under ${MAX_PROGRAM_SIZE} instructions`);
  });

  it('answers at once where JavaScript backtracks for seconds (^(a+)+$ on a run of a and a !)', () => {
    // JavaScript's engine: 2^n paths for n `a`s, seconds at 30. (test/manifest-patterns.test.ts counts the main thread's time.)
    const pattern = new LinearRegExp('^(a+)+$', 'u');
    assert.deepEqual([pattern.test(`${'a'.repeat(30)}!`), pattern.test(`${'a'.repeat(100_000)}!`), pattern.test('aaa')], [false, false, true]);
  });
});

describe('schemas compiled with the linear engine', () => {
  it("TypeBox builds a schema's patterns with it: one only JavaScript can take does not compile", () => {
    // JavaScript's engine would take a backreference; the linear engine refuses it.
    assert.throws(() => compileSchema(Type.String({ pattern: '^(a)\\1$' })), /uses a backreference/);
    assert.throws(() => compileSchema(Type.Object({}, { patternProperties: { '^(a)\\1$': Type.Integer() }, additionalProperties: false })), /uses a backreference/);
    assert.equal(globalThis.RegExp, RegExp, 'the global RegExp is JavaScript\'s again');
    assert.equal(/x/.constructor, globalThis.RegExp);
  });

  it('checks pattern and patternProperties, and names each problem, as before', () => {
    const record = compileSchema(Type.Object({}, { patternProperties: { '^[a-c]+$': Type.Integer() }, additionalProperties: false }));
    assert.deepEqual(record.problems({ abc: 1, cab: 'x', zz: 2 }), [
      { path: '/zz', message: 'is not an allowed property' },
      { path: '/cab', message: 'must be an integer' },
    ]);
    const text = compileSchema(Type.Object({ code: Type.String({ pattern: '^\\p{Lu}{3}$' }) }, { additionalProperties: false }));
    assert.deepEqual([text.check({ code: 'ÉUR' }), text.check({ code: 'eur' })], [true, false]);
    assert.deepEqual(text.problems({ code: 'eur' }), [{ path: '/code', message: 'must match pattern "^\\p{Lu}{3}$"' }]);
  });

  it("tests an object's keys against its properties and patternProperties as TypeBox lists them, a name list with leading lookaheads included", () => {
    // TypeBox joins them into one `(^a\.b$|^c$|^(?=\d)\w+$)`: the lookahead is no longer at the start, and each key of each object is tested.
    const schema = Type.Object({ 'a.b': Type.Optional(Type.String()), c: Type.Optional(Type.String()) }, { patternProperties: { '^(?=\\d)\\w+$': Type.Integer() }, additionalProperties: false });
    const validator = compileSchema(schema);
    const outcomes = [{ 'a.b': 'x' }, { axb: 'x' }, { c: 'x', '1a': 1 }, { a1: 1 }, { '1a': 'x' }].map((value) => [validator.check(value), validator.problems(value).map(({ path }) => path)]);
    assert.deepEqual(outcomes, [
      [true, []],
      [false, ['/axb']],
      [true, []],
      [false, ['/a1']],
      [false, ['/1a']],
    ]);
  });

  it('keeps the regex format JavaScript\'s: a value is a pattern when JavaScript compiles it, backreferences included', () => {
    const validator = compileSchema(Type.Object({ p: Type.String({ format: 'regex' }), n: Type.Integer() }, { additionalProperties: false }));
    // The error list is made under the lent name, where `new RegExp` is the linear engine.
    assert.deepEqual(validator.problems({ p: '(a)\\1', n: 'x' }).map(({ path }) => path), ['/n']);
    assert.deepEqual(validator.problems({ p: '(', n: 1 }).map(({ path }) => path), ['/p']);
  });

  it('lends the global name for the call only, and restores it after a throw and after nested calls', () => {
    const seen = withLinearRegExp(() => [globalThis.RegExp, withLinearRegExp(() => globalThis.RegExp), globalThis.RegExp]);
    assert.notEqual(seen[0], RegExp);
    assert.deepEqual(seen, [seen[0], seen[0], seen[0]]);
    assert.throws(() => withLinearRegExp(() => new RegExp('(a)\\1', 'u')), PatternError, 'the lent name builds linear expressions');
    assert.ok(withLinearRegExp(() => new RegExp('^a+$', 'u')) instanceof LinearRegExp);
    assert.throws(() =>
      withLinearRegExp(() => {
        throw new Error('inside');
      }),
    );
    assert.equal(globalThis.RegExp, RegExp);
    assert.equal(new RegExp('(a)\\1').test('aa'), true);
  });

  it('refuses at definition a plugin whose pattern the engine cannot take, naming the plugin and the place', () => {
    const define = () =>
      definePlugin({
        group: 'echoes',
        sdk: '^1.0.0',
        operations: {
          twice: defineOperation({
            summary: 'Doubled words',
            body: Type.Object({ text: Type.String({ maxLength: 10, pattern: '^(\\w+) \\1$' }) }, { additionalProperties: false }),
            response: Type.Object({ ok: Type.Boolean() }, { additionalProperties: false }),
            examples: [{ body: { text: 'a a' }, response: { ok: true } }],
            handler: () => ({ ok: true }),
          }),
        },
      });
    assert.throws(define, (error: Error) =>
      error.message.startsWith('Invalid plugin "echoes":\n') &&
      error.message.includes('- operation "twice": body /properties/text/pattern: is a pattern the service cannot match in linear time: it uses a backreference (\\1), which no linear-time engine can match'),
    );
  });
});
