import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPlugin, type PluginDefinition } from './define.js';
import { Type } from './index.js';
import { schemaKeywordProblems } from './schema-keywords.js';

const closed = { additionalProperties: false } as const;

/** A manifest with one operation `op`, to be broken one way per test. */
function manifest(operation: Record<string, unknown>): PluginDefinition & { kind: 'toolshed-plugin' } {
  return {
    kind: 'toolshed-plugin',
    group: 'sample',
    sdk: '^1.0.0',
    operations: {
      op: {
        summary: 'An operation',
        handler: () => ({ a: 'b' }),
        body: Type.Object({ name: Type.String({ minLength: 3 }), n: Type.Integer({ default: 2 }) }, closed),
        response: Type.Object({ a: Type.String() }, closed),
        examples: [{ body: { name: 'xyz' }, response: { a: 'b' } }],
        ...operation,
      },
    },
  } as PluginDefinition & { kind: 'toolshed-plugin' };
}

describe('schema keywords', () => {
  it('finds the values of the wrong kind that TypeBox compiles silently, with their pointers', () => {
    // The two faults a plugin author found loading silently.
    assert.deepEqual(schemaKeywordProblems(Type.String({ minLength: 'three' as unknown as number })), ['/minLength: must be a non-negative integer']);
    assert.deepEqual(schemaKeywordProblems({ type: 'object', properties: { 'a/b': { type: 'strnig' } } }), [
      '/properties/a~1b/type: must be one of string, number, integer, boolean, object, array, null, or a list of them',
    ]);
    assert.deepEqual(schemaKeywordProblems({ anyOf: [{ maximum: '9' }, { pattern: '(' }], items: { required: 'x' } }), [
      '/items/required: must be a list of names',
      '/anyOf/0/maximum: must be a number',
      '/anyOf/1/pattern: must be a valid regular expression',
    ]);
  });

  it('refuses a pattern or a patternProperties name the service cannot match in linear time, saying why', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(\\w)\\1$' } }, patternProperties: { '^(?=x)y': {}, 'a(?=b)': {}, '(': {} } };
    assert.deepEqual(schemaKeywordProblems(schema), [
      '/patternProperties/a(?=b): the name is a pattern the service cannot match in linear time: it uses a lookahead ((?=b)) other than at the very start (^(?=…) or ^(?!…))',
      '/patternProperties/(: the name must be a valid regular expression',
      '/properties/a/pattern: is a pattern the service cannot match in linear time: it uses a backreference (\\1), which no linear-time engine can match',
    ]);
  });

  it('accepts every schema of the built-in kinds', () => {
    const schema = Type.Object(
      { s: Type.String({ minLength: 1, maxLength: 9, pattern: '^[a-z]+$' }), list: Type.Array(Type.Number({ minimum: 0, multipleOf: 0.5 }), { maxItems: 3, uniqueItems: true }), u: Type.Union([Type.Literal('a'), Type.Null()]) },
      closed,
    );
    assert.deepEqual(schemaKeywordProblems(schema), []);
  });
});

describe('unknown keywords (strict, as in ajv)', () => {
  it('names each misspelt keyword with its pointer and the nearest known one', () => {
    // The three misspellings a plugin author found loading silently.
    const schema = { type: 'object', properties: { n: { type: 'integer', minimun: 0, maxmum: 9 }, s: { type: 'string', maxLenght: 3 } }, additionalProperties: false };
    const note = "(a plugin's own annotations start with x-)";
    assert.deepEqual(schemaKeywordProblems(schema), [
      `/properties/n/minimun: \`minimun\` is not a JSON Schema keyword: did you mean \`minimum\`? ${note}`,
      `/properties/n/maxmum: \`maxmum\` is not a JSON Schema keyword: did you mean \`maximum\`? ${note}`,
      `/properties/s/maxLenght: \`maxLenght\` is not a JSON Schema keyword: did you mean \`maxLength\`? ${note}`,
    ]);
    // OpenAPI's singular `example` is not draft 2020-12's `examples`.
    assert.deepEqual(schemaKeywordProblems({ type: 'string', example: 'a' }), [`/example: \`example\` is not a JSON Schema keyword: did you mean \`examples\`? ${note}`]);
  });

  it('accepts x- annotations, TypeBox\'s own output and the draft 2020-12 keywords other tools use', () => {
    const schema = Type.Object(
      {
        image: Type.String({ maxLength: 9, contentEncoding: 'base64', contentMediaType: 'image/png', format: 'byte', 'x-unbounded': 'why', 'x-note': 1 }),
        pair: Type.Tuple([Type.String(), Type.Number()]),
        tags: Type.Array(Type.String(), { uniqueItems: true, maxItems: 3, examples: [['a']], deprecated: true, readOnly: true, writeOnly: false }),
        record: Type.Record(Type.String(), Type.Integer()),
        optional: Type.Optional(Type.Readonly(Type.Boolean({ title: 'T', description: 'D', default: true, $comment: 'c' }))),
      },
      { additionalProperties: false, $id: 'sample', if: { required: ['image'] }, then: { required: ['pair'] }, else: {} },
    );
    assert.deepEqual(schemaKeywordProblems(schema), []);
  });
});

describe('checkPlugin on examples', () => {
  it('stops a manifest whose schema is broken, naming the operation and the pointer', () => {
    assert.deepEqual(checkPlugin(manifest({ body: Type.Object({ name: Type.String({ minLength: 'three' as unknown as number }) }, closed), examples: [{ body: { name: 'x' }, response: { a: 'b' } }] })), [
      'operation "op": body /properties/name/minLength: must be a non-negative integer',
    ]);
  });

  it('stops a manifest whose example has an extra property or a wrong answer, defaults being filled first', () => {
    const examples = [
      { body: { name: 'xyz' }, response: { a: 'b' } },
      { body: { name: 'x', extra: 1 }, response: { a: 'b', leak: 1 } },
    ];
    assert.deepEqual(checkPlugin(manifest({ examples })), [
      'operation "op": example 2 body /extra: is not an allowed property; allowed: name, n',
      'operation "op": example 2 body /name: must not have fewer than 3 characters',
      'operation "op": example 2 response /leak: is not an allowed property; allowed: a',
    ]);
    assert.deepEqual(checkPlugin(manifest({})), []);
  });
});

describe('checkPlugin with requireBounds (the kernel asks it of third-party plugins)', () => {
  it('names strings without maxLength and arrays without maxItems in the body, and accepts x-unbounded with a reason', () => {
    const body = Type.Object(
      {
        name: Type.String({ minLength: 3 }),
        list: Type.Array(Type.String({ maxLength: 5 })),
        either: Type.Union([Type.String({ maxLength: 5 }), Type.Array(Type.Integer(), { maxItems: 2 })]),
        kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
        doc: Type.String({ 'x-unbounded': 'a document; the body cap bounds it' }),
        blank: Type.String({ 'x-unbounded': ' ' }),
      },
      closed,
    );
    const examples = [{ body: { name: 'xyz', list: [], either: 'a', kind: 'a', doc: '', blank: '' }, response: { a: 'b' } }];
    const hint = '(bound it, or give the reason it needs none as x-unbounded)';
    assert.deepEqual(checkPlugin(manifest({ body, examples }), '1.0.0', { requireBounds: true }), [
      `operation "op": body /properties/name: a string without maxLength ${hint}`,
      `operation "op": body /properties/list: an array without maxItems ${hint}`,
      'operation "op": body /properties/blank: x-unbounded must be a non-empty reason',
    ]);
    // Without the option (built-ins, definePlugin) the same manifest is fine; responses are never asked.
    assert.deepEqual(checkPlugin(manifest({ body, examples })), []);
  });
});
