import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSchema } from 'typebox';
import { compileSchema } from './validation.js';

const problems = (schema: object, value: unknown) => compileSchema(schema as TSchema).problems(value);
const object = (properties: object, rules: object[]) => ({ type: 'object', additionalProperties: false, properties, allOf: rules });

describe('details of a rule over several fields', () => {
  const units = object({ category: { enum: ['length', 'mass'] }, from: { type: 'string' }, to: { type: 'string' } }, [
    {
      description: 'must be a length unit',
      if: { required: ['category'], properties: { category: { const: 'length' } } },
      then: { properties: { from: { type: 'string', pattern: '^(?:m|km)$' }, to: { type: 'string', pattern: '^(?:m|km)$' } } },
    },
  ]);

  it('if/then: names only the field the failing branch refuses, worded by the rule', () => {
    assert.deepEqual(problems(units, { category: 'length', from: 'km', to: 'kg' }), [{ path: '/to', message: 'must be a length unit' }]);
    assert.deepEqual(problems(units, { category: 'length', from: 'g', to: 'kg' }), [
      { path: '/from', message: 'must be a length unit' },
      { path: '/to', message: 'must be a length unit' },
    ]);
    assert.deepEqual(problems(units, { category: 'mass', from: 'g', to: 'kg' }), []);
  });

  it('adds nothing when the field is already wrong on its own', () => {
    assert.deepEqual(problems(units, { category: 'length', from: 'km', to: 5 }), [{ path: '/to', message: 'must be a string' }]);
  });

  it('oneOf and anyOf: names every field the rule mentions, whichever way it is broken', () => {
    const exactlyOne = object({ a: { type: 'string' }, b: { type: 'string' } }, [
      { description: 'exactly one of a and b', oneOf: [{ required: ['a'], properties: { a: true } }, { required: ['b'], properties: { b: true } }] },
    ]);
    const both = [
      { path: '/a', message: 'exactly one of a and b' },
      { path: '/b', message: 'exactly one of a and b' },
    ];
    assert.deepEqual(problems(exactlyOne, {}), both);
    assert.deepEqual(problems(exactlyOne, { a: '', b: '' }), both);
    assert.deepEqual(problems(exactlyOne, { b: '' }), []);
    const someTrue = object({ x: { type: 'boolean' }, y: { type: 'boolean' } }, [
      { description: 'x or y', anyOf: [{ properties: { x: { const: true } } }, { properties: { y: { const: true } } }] },
    ]);
    assert.deepEqual(problems(someTrue, { x: false, y: false }), [
      { path: '/x', message: 'x or y' },
      { path: '/y', message: 'x or y' },
    ]);
  });
});

describe('details of unions and repeats', () => {
  const codes = {
    type: 'object',
    additionalProperties: false,
    properties: { to: { anyOf: [{ type: 'string', pattern: '^[A-Z]{3}$' }, { type: 'array', items: { type: 'string' }, uniqueItems: true }] } },
  };

  it("a union of types is described as the form of the value's own type", () => {
    assert.deepEqual(problems(codes, { to: 'eu' }), [{ path: '/to', message: 'must match pattern "^[A-Z]{3}$"' }]);
    // No form of the value's type: every form named, and the nearest with what it lacks.
    assert.deepEqual(problems(codes, { to: 5 }), [{ path: '/to', message: 'does not match any of the allowed forms: a string or an array; nearest: a string (must be a string)' }]);
  });

  it('uniqueItems names each repeat by its index', () => {
    assert.deepEqual(problems(codes, { to: ['EUR', 'USD', 'EUR', 'EUR'] }), [
      { path: '/to/2', message: 'repeats EUR' },
      { path: '/to/3', message: 'repeats EUR' },
    ]);
  });
});
