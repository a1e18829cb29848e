import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from './typebox.js';
import { editDistance, nearestName } from './nearest.js';
import { compileSchema, unknownPropertyMessage } from './validation.js';

const closed = { additionalProperties: false } as const;
/** The shape of qr-code-generator's content: closed objects told apart by their `type` tag. */
const content = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String({ minLength: 1 }) }, closed),
  Type.Object({ type: Type.Literal('wifi'), ssid: Type.String({ minLength: 1 }), hidden: Type.Boolean({ default: false }) }, closed),
  Type.Object({ type: Type.Literal('email'), to: Type.String({ minLength: 1 }) }, closed),
]);
const body = compileSchema(Type.Object({ content, size: Type.Integer({ default: 1 }) }, closed));
const problems = (value: Record<string, unknown>) => body.problems(body.withDefaults(structuredClone(value)));

describe('a value that fits no form of a union', () => {
  it('names every form and the nearest, with what the value lacks as that one', () => {
    // A string where objects are wanted: no form is nearer by type or tag, so the first is named.
    assert.deepEqual(problems({ content: 'hello' }), [
      { path: '/content', message: 'does not match any of the allowed forms: {"type":"text","text":…}, {"type":"wifi","ssid":…} or {"type":"email","to":…}; nearest: {"type":"text","text":…} (must be an object)' },
    ]);
    // A misspelt tag: "wfi" is one edit from "wifi", three or more from the others.
    assert.deepEqual(problems({ content: { type: 'wfi', ssid: 'home' } }), [
      { path: '/content', message: 'does not match any of the allowed forms: {"type":"text","text":…}, {"type":"wifi","ssid":…} or {"type":"email","to":…}; nearest: {"type":"wifi","ssid":…} (/type: must be "wifi")' },
    ]);
  });

  it('describes a value meant as one form (its tag matches) inside that form, a typo named', () => {
    assert.deepEqual(problems({ content: { type: 'wifi', sid: 'home' } }), [
      { path: '/content/ssid', message: 'is required' },
      { path: '/content/sid', message: 'is not an allowed property; did you mean "ssid"?' },
    ]);
  });

  it('names the forms of a oneOf too', () => {
    const either = compileSchema(Type.Object({ n: { oneOf: [Type.String(), Type.Array(Type.String())] } as never }, closed));
    assert.deepEqual(either.problems({ n: 5 }), [{ path: '/n', message: 'does not match any of the allowed forms: a string or an array; nearest: a string (must be a string)' }]);
  });
});

describe('an unknown property', () => {
  const fields = ['input', 'unit', 'timeZone', 'locale'];

  it('is told the allowed name it is a typo of, letter case and swapped neighbours included', () => {
    assert.equal(unknownPropertyMessage('timezone', fields), 'is not an allowed property; did you mean "timeZone"?');
    assert.equal(unknownPropertyMessage('unti', fields), 'is not an allowed property; did you mean "unit"?');
  });

  it('is told every allowed name when none is a typo away, the first twelve of a longer list', () => {
    assert.equal(unknownPropertyMessage('timestamp', fields), 'is not an allowed property; allowed: input, unit, timeZone, locale');
    const many = Array.from({ length: 14 }, (_, index) => `field${index}`);
    assert.equal(unknownPropertyMessage('other', many), `is not an allowed property; allowed: ${many.slice(0, 12).join(', ')}, …`);
    assert.equal(unknownPropertyMessage('x', []), 'is not an allowed property; the object takes none');
    // A hostile key is not compared letter by letter.
    assert.equal(nearestName('a'.repeat(121), ['a']), undefined);
  });

  it('counts a swap of neighbours as one edit', () => {
    assert.equal(editDistance('hots', 'host'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
  });
});
