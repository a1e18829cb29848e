import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPlugin } from './contract.js';
import { definePlugin, defineOperation, Type } from './index.js';

const closed = { additionalProperties: false } as const;
const base = {
  summary: 'Reverse',
  body: Type.Object({ text: Type.String(), times: Type.Integer({ default: 1 }) }, closed),
  response: Type.Object({ reversed: Type.String() }, closed),
  examples: [{ body: { text: 'ab' }, response: { reversed: 'ba' } }],
  handler: ({ text }: { text: string }) => ({ reversed: [...text].reverse().join('') }),
};
const good = { kind: 'short-word', title: 'A short word', pattern: /^[a-z]{1,8}$/, confidence: 0.4 };

/** The problems of a one-operation plugin whose operation carries `extra`. */
function problemsWith(extra: Record<string, unknown>): string[] {
  return checkPlugin({ kind: 'toolshed-plugin', group: 'sample', sdk: '^1.0.0', operations: { reverse: { ...base, ...extra } } });
}

describe('operation io and recognizers', () => {
  it('accepts main fields that are properties of the schemas, and well-formed recognizers (RegExp or source)', () => {
    assert.deepEqual(problemsWith({ io: { input: 'text', output: 'reversed' }, recognizers: [good, { ...good, pattern: '^x+$', body: { times: 2 }, confidence: 1 }] }), []);
    const plugin = definePlugin({
      group: 'sample',
      sdk: '^1.0.0',
      operations: { reverse: defineOperation({ ...base, io: { input: 'text', output: 'reversed' }, recognizers: [good] }) },
    });
    assert.deepEqual(plugin.operations.reverse.io, { input: 'text', output: 'reversed' });
  });

  it('refuses a main input that is not a property of the body schema', () => {
    assert.deepEqual(problemsWith({ io: { input: 'txt' } }), ['operation "reverse": io.input "txt" is not a property of the body schema']);
  });

  it('refuses a main output that is not a property of the response schema', () => {
    assert.deepEqual(problemsWith({ io: { output: 'text' } }), ['operation "reverse": io.output "text" is not a property of the response schema']);
    assert.deepEqual(problemsWith({ io: { input: 'text', extra: 1 } }), ['operation "reverse": io has an unknown field "extra"']);
  });

  it('refuses recognizers without a main input to fill', () => {
    assert.deepEqual(problemsWith({ recognizers: [good] }), ['operation "reverse": recognizers need io.input, the field identify fills with the input']);
  });

  it('refuses a confidence outside (0, 1]', () => {
    for (const confidence of [0, -0.1, 1.01, Number.NaN, '0.5']) {
      assert.deepEqual(problemsWith({ io: { input: 'text' }, recognizers: [{ ...good, confidence }] }), [
        'operation "reverse": recognizers[0]: confidence must be a number above 0 and at most 1',
      ]);
    }
  });

  it('refuses a pattern that does not compile, a stateful flag, a bad kind or title, and a body field outside the schema', () => {
    const problems = problemsWith({
      io: { input: 'text' },
      recognizers: [
        { ...good, pattern: '(' },
        { ...good, pattern: /a/g },
        { ...good, kind: 'Short Word', title: '' },
        { ...good, body: { text: 'x', nope: 1 } },
        { ...good, check: 'x' },
        { ...good, field: 'nope' },
      ],
    });
    assert.equal(problems.length, 8, problems.join('\n'));
    assert.match(problems[0]!, /recognizers\[0\]: pattern does not compile/);
    assert.equal(problems[1], 'operation "reverse": recognizers[1]: pattern must not use the g or y flag');
    assert.equal(problems[2], 'operation "reverse": recognizers[2]: kind must be a kebab-case name');
    assert.equal(problems[3], 'operation "reverse": recognizers[2]: title must be a name of 1 to 80 characters');
    assert.equal(problems[4], 'operation "reverse": recognizers[3]: body must not set the field "text" the input goes to');
    assert.equal(problems[5], 'operation "reverse": recognizers[3]: body field "nope" is not a property of the body schema');
    assert.equal(problems[6], 'operation "reverse": recognizers[4]: unknown field "check"');
    assert.equal(problems[7], 'operation "reverse": recognizers[5]: field "nope" is not a property of the body schema');
    assert.deepEqual(problemsWith({ io: { input: 'text' }, recognizers: [{ ...good, field: 'times', body: { text: '' } }] }), []);
  });

  it('refuses a pattern identify could not match in linear time, saying why', () => {
    assert.deepEqual(problemsWith({ io: { input: 'text' }, recognizers: [{ ...good, pattern: /^(a)\1$/ }, { ...good, pattern: 'a(?=b)' }, { ...good, pattern: /^(?=\d)\w+$/ }, { ...good, answer: { reversed: '(a)\\1' } }] }), [
      'operation "reverse": recognizers[0]: pattern cannot be matched in linear time: it uses a backreference (\\1), which no linear-time engine can match',
      'operation "reverse": recognizers[1]: pattern cannot be matched in linear time: it uses a lookahead ((?=b)) other than at the very start (^(?=…) or ^(?!…))',
      'operation "reverse": recognizers[3]: answer.reversed: pattern cannot be matched in linear time: it uses a backreference (\\1), which no linear-time engine can match',
    ]);
  });

  it('accepts answer patterns on response fields and fill on body fields, and names each wrong one', () => {
    assert.deepEqual(problemsWith({ io: { input: 'text' }, recognizers: [{ ...good, answer: { reversed: /^a/ }, fill: { text: '$&', times: 1 } }] }), []);
    const problems = problemsWith({
      io: { input: 'text' },
      recognizers: [
        { ...good, answer: { nope: 'x', reversed: '(' } },
        { ...good, answer: 'x', fill: [] },
        { ...good, fill: { nope: '$&', times: 2 }, body: { times: 1 } },
      ],
    });
    assert.equal(problems.length, 6, problems.join('\n'));
    assert.equal(problems[0], 'operation "reverse": recognizers[0]: answer field "nope" is not a property of the response schema');
    assert.match(problems[1]!, /recognizers\[0\]: answer\.reversed: pattern does not compile/);
    assert.equal(problems[2], 'operation "reverse": recognizers[1]: answer must be an object of response fields and patterns');
    assert.equal(problems[3], 'operation "reverse": recognizers[1]: fill must be an object of body fields');
    assert.equal(problems[4], 'operation "reverse": recognizers[2]: fill field "nope" is not a property of the body schema');
    assert.equal(problems[5], 'operation "reverse": recognizers[2]: fill and body both set "times"');
  });

  it('keeps a RegExp pattern through a structured clone, as a worker-hosted manifest arrives', () => {
    const copy = structuredClone({ io: { input: 'text' }, recognizers: [good] });
    assert.deepEqual(problemsWith(copy), []);
    assert.ok(copy.recognizers[0]!.pattern.test('abc'));
  });
});

describe('a plugin\'s size', () => {
  /** The problems of a plugin of `count` operations, each with `recognizers` recognizers. */
  const problemsOf = (count: number, recognizers: number): string[] =>
    checkPlugin({
      kind: 'toolshed-plugin',
      group: 'sample',
      sdk: '^1.0.0',
      operations: Object.fromEntries(Array.from({ length: count }, (_, index) => [`op-${index}`, { ...base, io: { input: 'text' }, recognizers: Array(recognizers).fill(good) }])),
    });

  it('is at most 64 operations: each tool page weighs every operation against every other', () => {
    assert.deepEqual(problemsOf(64, 0), []);
    assert.deepEqual(problemsOf(65, 0), ['operations: at most 64 in one plugin (it declares 65)']);
    // Refused by the count alone, without walking 3,000 operations' schemas.
    assert.deepEqual(problemsOf(3000, 16), ['operations: at most 64 in one plugin (it declares 3000)']);
  });

  it('is at most 64 recognizers over all its operations: identify tests each one for every request', () => {
    assert.deepEqual(problemsOf(4, 16), []);
    assert.deepEqual(problemsOf(5, 13), ['recognizers: at most 64 in one plugin, over all its operations (it declares 65)']);
  });
});
