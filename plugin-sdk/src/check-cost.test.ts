import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCostProblem, checkFan, defaultProblems, MAX_CHECK_FAN, MAX_DEFAULTS_BYTES } from './check-cost.js';
import { compileSchema } from './validation.js';

/**
 * Each level checks its one element twice: through the first branch, which then fails on
 * `maxItems: 0`, and through the second. The work doubles with each level of the value.
 */
function doubling(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'array', maxItems: 0 };
  for (let level = 0; level < levels; level++) schema = { anyOf: [{ allOf: [{ type: 'array', items: schema }, { maxItems: 0 }] }, { type: 'array', items: schema }] };
  return schema;
}

/** How many times a check against `doubling(levels)` looks at the innermost array of `[[…[]…]]`, `levels` deep. */
function innermostLooks(levels: number): number {
  let looks = 0;
  let value: unknown = new Proxy([], {
    get(target, key, receiver) {
      if (key === 'length') looks++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  for (let level = 0; level < levels; level++) value = [value];
  assert.equal(compileSchema(doubling(levels) as never).check(value), true);
  return looks;
}

describe('the fan of a schema', () => {
  it('weighs each node a value meets at one place, worked out by hand', () => {
    // The object: 1, and its type and two property names, 3 parts at 16 a node, rounded up: 2. A member meets one property's schema: 2.
    assert.equal(checkFan({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } }), 2);
    // anyOf: the union (1) and both branches (2 each: `type` is one part) at the value itself.
    assert.equal(checkFan({ anyOf: [{ type: 'string' }, { type: 'number' }] }), 1 + 2 + 2);
    // An enum of 32 entries is 33 parts (the list and its entries): 3 nodes' weight.
    assert.equal(checkFan({ enum: Array.from({ length: 32 }, (_, index) => index) }), 1 + 3);
    // An element meets `items` and `contains` (2 each); the array itself only its own node (2).
    assert.equal(checkFan({ type: 'array', items: { type: 'string' }, contains: { type: 'string' } }), 4);
  });

  it('doubles with each level of branches that descend into the same child, as the work of a check does', () => {
    assert.deepEqual([1, 2, 3, 4].map((levels) => checkFan(doubling(levels))), [7, 14, 28, 56]);
    assert.deepEqual([1, 2, 3, 4].map(innermostLooks), [2, 4, 8, 16]);
  });

  it('refuses a schema whose check could weigh more than the bound, and takes one at it', () => {
    const union = (forms: number) => ({ anyOf: Array.from({ length: forms }, (_, index) => ({ const: index })) });
    // The union (1) and each `const` branch (1 + one part: 2).
    assert.equal(checkFan(union(31)), 63);
    assert.equal(checkCostProblem(union(31)), undefined);
    assert.equal(
      checkCostProblem(union(32)),
      `/: a check could test one value against schema nodes weighing 65 (at most ${MAX_CHECK_FAN}): its allOf, anyOf, oneOf, not, if and dependentSchemas branches are too many, or nest too deep`,
    );
    assert.equal(checkCostProblem(doubling(4)), undefined);
    assert.match(checkCostProblem(doubling(5)) ?? '', /^\/: a check could test one value against schema nodes weighing 112 /);
  });

  it('refuses a reference, which could name the schema it is in, saying where', () => {
    const schema = { type: 'object', properties: { tree: { $ref: '#/$defs/tree' } }, $defs: { tree: { type: 'array', items: { $ref: '#/$defs/tree' } } } };
    assert.equal(checkCostProblem(schema), '/properties/tree/$ref: a reference is not taken; write the schema it names in its place');
    assert.equal(checkCostProblem({ items: { $dynamicRef: '#meta' } }), '/items/$dynamicRef: a reference is not taken; write the schema it names in its place');
  });

  it('refuses a schema object that contains itself, without walking round it for ever', () => {
    const schema: Record<string, unknown> = { type: 'array' };
    schema.items = { anyOf: [schema] };
    assert.equal(checkCostProblem({ type: 'object', properties: { list: schema } }), '/properties/list/items/anyOf/0: the schema contains itself');
  });

  it('counts a part shared by several keywords wherever it is met, and walks it once', () => {
    const shared = { type: 'string' };
    assert.equal(checkFan({ allOf: [shared, shared, shared] }), 1 + 3 * 2);
  });
});

describe('the defaults of a body schema', () => {
  it('takes small defaults of fields the body has once, as the built-ins have', () => {
    const schema = { type: 'object', properties: { algorithms: { type: 'array', items: { type: 'string' }, default: ['md5', 'sha1'] }, mode: { anyOf: [{ const: 'a' }, { const: 'b' }], default: 'a' } } };
    assert.deepEqual(defaultProblems(schema), []);
  });

  it('refuses a default inside items or a map, which would be filled into each of many values', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { n: { type: 'number', default: 1 } } } },
        map: { type: 'object', patternProperties: { '^x': { type: 'string', default: 'y' } } },
      },
    };
    assert.deepEqual(defaultProblems(schema), [
      '/properties/list/items/properties/n/default: a default inside items or a map is filled into each of its values; leave it to the handler',
      '/properties/map/patternProperties/^x/default: a default inside items or a map is filled into each of its values; leave it to the handler',
    ]);
  });

  it('refuses defaults that add up to more than the bound, counted as JSON, and one that is not JSON', () => {
    const list = (length: number) => ({ type: 'object', properties: { list: { type: 'array', items: { type: 'number' }, default: Array.from({ length }, () => 1) } } });
    // [1,1,…]: two characters an entry, one less, and the brackets: 4,095 and 4,097.
    assert.deepEqual(defaultProblems(list(2047)), []);
    assert.deepEqual(defaultProblems(list(2048)), [`/: its defaults add up to 4097 bytes of JSON (at most ${MAX_DEFAULTS_BYTES}), filled into every body that leaves them out`]);
    assert.deepEqual(defaultProblems({ type: 'object', properties: { n: { default: 1n } } }), ['/properties/n/default: is not JSON']);
  });
});

