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

  it('accepts every schema of the built-in kinds', () => {
    const schema = Type.Object(
      { s: Type.String({ minLength: 1, maxLength: 9, pattern: '^[a-z]+$' }), list: Type.Array(Type.Number({ minimum: 0, multipleOf: 0.5 }), { maxItems: 3, uniqueItems: true }), u: Type.Union([Type.Literal('a'), Type.Null()]) },
      closed,
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
      'operation "op": example 2 body /extra: is not an allowed property',
      'operation "op": example 2 body /name: must not have fewer than 3 characters',
      'operation "op": example 2 response /leak: is not an allowed property',
    ]);
    assert.deepEqual(checkPlugin(manifest({})), []);
  });
});
