import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPlugin, compileSchema, contractFaultOf, resolvePluginConfig } from './contract.js';
import {
  PLUGIN_CATEGORIES,
  definePlugin,
  defineOperation,
  InputError,
  isToolshedError,
  Type,
  UnprocessableError,
  UpstreamError,
  UpstreamTimeoutError,
} from './index.js';
import { invoke } from './testing.js';
import { toWireSchema } from './schema-rules.js';

const closed = { additionalProperties: false } as const;
const plugin = definePlugin({
  group: 'sample',
  sdk: '^1.0.0',
  errors: { too_long: 'The text is too long' },
  config: { section: 'sample', schema: Type.Object({ max: Type.Integer({ default: 5 }) }, closed) },
  operations: {
    upper: defineOperation({
      summary: 'Uppercase',
      body: Type.Object({ text: Type.String(), repeat: Type.Integer({ minimum: 1, default: 1 }) }, closed),
      response: Type.Object({ text: Type.String() }, closed),
      examples: [{ body: { text: 'a' }, response: { text: 'A' } }],
      handler: ({ text, repeat }, context: { config: { max: number } }) => {
        if (text.length > context.config.max) throw new UnprocessableError('too_long', 'too long');
        return { text: text.toUpperCase().repeat(repeat) };
      },
    }),
    leak: defineOperation({
      summary: 'Returns a field the schema lacks',
      body: Type.Object({}, closed),
      response: Type.Object({ ok: Type.Boolean() }, closed),
      examples: [{ body: {}, response: { ok: true } }],
      handler: () => ({ ok: true, secret: 1 }) as { ok: boolean },
    }),
    surprise: defineOperation({
      summary: 'Throws an undeclared code',
      body: Type.Object({}, closed),
      response: Type.Object({}, closed),
      examples: [{ body: {}, response: {} }],
      handler: () => {
        throw new UnprocessableError('not_declared', 'x');
      },
    }),
  },
});

describe('invoke()', () => {
  it('fills defaults, validates and runs the handler with the plugin config', async () => {
    assert.deepEqual(await invoke(plugin, 'upper', { text: 'ab', repeat: 2 }), { text: 'ABAB' });
    assert.deepEqual(await invoke(plugin, 'upper', { text: 'ab' }), { text: 'AB' });
    await assert.rejects(invoke(plugin, 'upper', { text: 'abcdef' }), { status: 422, code: 'too_long' });
    assert.deepEqual(await invoke(plugin, 'upper', { text: 'abcdef' }, { config: { max: 10 } }), { text: 'ABCDEF' });
  });

  it('leaves the caller’s body untouched', async () => {
    const body = { text: 'a' };
    await invoke(plugin, 'upper', body);
    assert.deepEqual(body, { text: 'a' });
  });

  it('throws InputError with details for a body that breaks the schema', async () => {
    await assert.rejects(invoke(plugin, 'upper', { repeat: 0, extra: true }), (error: InputError) => {
      assert.equal(error.status, 400);
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(error.details, [
        { path: '/text', message: 'is required' },
        { path: '/extra', message: 'is not an allowed property; allowed: text, repeat' },
        { path: '/repeat', message: 'must be >= 1' },
      ]);
      return true;
    });
  });

  it('fails a test when a handler returns a field its schema lacks, naming the field and not its value', async () => {
    await assert.rejects(invoke(plugin, 'leak', {}), (error: Error) => {
      assert.equal(error.message, 'sample.leak returned a response that breaks its schema: /secret: not declared in the response schema');
      assert.deepEqual(contractFaultOf(error), { operation: 'sample.leak', pointers: ['/secret'], problems: ['/secret: not declared in the response schema'] });
      return true;
    });
  });

  it('turns an undeclared 422 code into a plain error (a 500 in the kernel)', async () => {
    await assert.rejects(invoke(plugin, 'surprise', {}), (error: Error) => !isToolshedError(error) && /undeclared error code "not_declared"/.test(error.message));
  });

  it("holds an operation to its own errors list, not every code of the plugin", async () => {
    const twoCodes = definePlugin({
      group: 'two-codes',
      sdk: '^1.0.0',
      errors: { first: 'The first way to fail', second: 'The second way to fail' },
      operations: {
        narrow: defineOperation({
          summary: 'May throw first only',
          errors: ['first'],
          body: Type.Object({ code: Type.String() }, closed),
          response: Type.Object({}, closed),
          examples: [{ body: { code: '' }, response: {} }],
          handler: ({ code }) => {
            if (code !== '') throw new UnprocessableError(code, code);
            return {};
          },
        }),
      },
    });
    await assert.rejects(invoke(twoCodes, 'narrow', { code: 'first' }), { status: 422, code: 'first' });
    await assert.rejects(invoke(twoCodes, 'narrow', { code: 'second' }), (error: Error) => !isToolshedError(error) && /undeclared error code "second"/.test(error.message));
  });

  it('refuses an unknown operation name', async () => {
    await assert.rejects(invoke(plugin, 'nope', {}), /sample has no operation "nope"/);
  });

  it('checks the config section', () => {
    assert.throws(() => resolvePluginConfig(plugin, { max: 'x' }), { status: 400, details: [{ path: '/max', message: 'must be an integer' }] });
  });
});

describe('errors', () => {
  it('carry status and code, and are recognised without instanceof', () => {
    assert.equal(new UpstreamError('x').status, 502);
    assert.equal(new UpstreamTimeoutError('x').code, 'upstream_timeout');
    assert.equal(isToolshedError({ isToolshedError: true, status: 422, code: 'x', message: 'm' }), true);
    assert.equal(isToolshedError(new Error('x')), false);
    assert.equal(isToolshedError(null), false);
    assert.equal(isToolshedError({ isToolshedError: true, status: '422', code: 'x', message: 'm' }), false);
  });
});

describe('checkPlugin()', () => {
  it('lists every problem of a malformed manifest', () => {
    assert.deepEqual(checkPlugin(42), ['the default export is not a plugin manifest (use definePlugin)']);
    const problems = checkPlugin({
      kind: 'toolshed-plugin',
      group: 'Bad_Group',
      sdk: 'not a range',
      errors: { 'Bad-Code': 'x' },
      config: { section: 'has space' },
      close: 5,
      operations: { Upper: {}, ok: { summary: 's', handler: () => ({}), body: { type: 'string' }, response: 5, examples: [{}] } },
    });
    assert.deepEqual(problems, [
      'group must be a kebab-case name',
      'sdk must be a semver range such as ^1.0.0',
      'error code "Bad-Code" must be snake_case with a description',
      'config.section must be a plain name',
      'close must be a function',
      'operation "Upper": the name must be kebab-case',
      'operation "ok": body must be an object schema (Type.Object)',
      'operation "ok": response is not a schema',
      'operation "ok": every example needs a body object and a response',
    ]);
  });

  it('checks the words for people: a short title, a known category, lower-case keywords', () => {
    assert.deepEqual(checkPlugin({ ...plugin, title: 'Word tools', category: 'Text', keywords: ['reverse', 'mirror text'] }), []);
    assert.deepEqual(checkPlugin({ ...plugin, title: '', category: 'Fun', keywords: ['Reverse'] }), [
      'title must be a short text (1–60 characters)',
      `category must be one of ${PLUGIN_CATEGORIES.join(', ')}`,
      'keywords must be a list of lower-case words',
    ]);
  });

  it("names every code in an operation's errors list that the plugin does not declare", () => {
    const operation = (errors: unknown) => ({ ...plugin.operations.upper, errors });
    const problems = checkPlugin({ ...plugin, operations: { a: operation(['too_long', 'nope', 'too_long']), b: operation('too_long'), c: operation([7]) } });
    assert.deepEqual(problems, [
      'operation "a": errors[1] "nope" is not declared in the plugin\'s errors',
      'operation "a": errors lists "too_long" twice',
      "operation \"b\": errors must be a list of the plugin's error codes",
      'operation "c": errors[0] 7 is not declared in the plugin\'s errors',
    ]);
  });

  it('takes readsClock as true beside deterministic: false only', () => {
    const operation = (fields: Record<string, unknown>) => ({ ...plugin.operations.upper, ...fields });
    assert.deepEqual(checkPlugin({ ...plugin, operations: { a: operation({ deterministic: false, readsClock: true }), b: operation({ readsClock: true }), c: operation({ deterministic: false, readsClock: false }) } }), [
      'operation "b": readsClock must be true, beside deterministic: false, or left out',
      'operation "c": readsClock must be true, beside deterministic: false, or left out',
    ]);
  });

  it('takes deterministic as true or false only', () => {
    const operation = (deterministic: unknown) => ({ ...plugin.operations.upper, deterministic });
    assert.deepEqual(checkPlugin({ ...plugin, operations: { a: operation(false), b: operation(true), c: operation('no') } }), ['operation "c": deterministic must be true or false']);
  });

  it('takes cost as "linear" or "superlinear" only', () => {
    const operation = (cost: unknown) => ({ ...plugin.operations.upper, cost });
    const operations = { a: operation('linear'), b: operation(undefined), c: operation('cheap'), d: operation('superlinear') };
    assert.deepEqual(checkPlugin({ ...plugin, operations }), ['operation "c": cost must be "linear", "superlinear" or left out']);
  });

  it('refuses a plugin that needs another SDK major', () => {
    assert.deepEqual(checkPlugin({ ...plugin, sdk: '^2.0.0' }, '1.0.0'), ['the plugin needs SDK ^2.0.0, this kernel has 1.0.0']);
    assert.deepEqual(checkPlugin(plugin, '1.4.0'), []);
  });

  it('names a schema nested too deep to walk instead of throwing a stack overflow', () => {
    let deep: Record<string, unknown> = { type: 'string', maxLength: 3 };
    for (let level = 0; level < 20_000; level++) deep = { type: 'array', maxItems: 2, items: deep };
    const operation = { ...plugin.operations.upper, body: { type: 'object', additionalProperties: false, properties: { deep } } };
    assert.deepEqual(checkPlugin({ ...plugin, operations: { upper: operation } }), ['operation "upper": body nests too deep to be checked']);
    assert.deepEqual(checkPlugin({ ...plugin, operations: { upper: operation } }, undefined, { requireBounds: true }), ['operation "upper": body nests too deep to be checked']);
  });

  it('makes definePlugin throw with the list', () => {
    assert.throws(() => definePlugin({ group: 'x', sdk: '^1.0.0', operations: {} }), /Invalid plugin "x":\n- operations must hold at least one operation/);
  });
});

describe('schemas', () => {
  it('marks defaulted fields optional on the wire, recursively', () => {
    const schema = Type.Object({ a: Type.String(), b: Type.Integer({ default: 1 }), c: Type.Object({ d: Type.Boolean({ default: false }) }, closed) }, closed);
    const wire = toWireSchema(schema) as { required: string[]; properties: { c: { required?: string[] } } };
    assert.deepEqual(wire.required, ['a', 'c']);
    assert.equal(wire.properties.c.required, undefined);
    assert.deepEqual(schema.required, ['a', 'b', 'c'], 'the original is untouched');
  });

  it('describes union, enum and type errors in plain words', () => {
    const validator = compileSchema(Type.Object({ u: Type.Union([Type.Literal('x'), Type.Literal('y')]), e: Type.Enum(['p', 'q']), n: Type.Union([Type.String(), Type.Integer()]) }, closed));
    assert.deepEqual(validator.problems({ u: 'z', e: 'r', n: true }), [
      { path: '/u', message: 'must be one of "x", "y"' },
      { path: '/e', message: 'must be one of "p", "q"' },
      { path: '/n', message: 'does not match any of the allowed forms: a string or an integer; nearest: a string (must be a string)' },
    ]);
    assert.equal(validator.check({ u: 'x', e: 'p', n: 1 }), true);
  });

  it('fills defaults with copies, in unions as in plain fields', () => {
    const validator = compileSchema(
      Type.Object(
        {
          list: Type.Array(Type.String(), { default: ['a', 'b'] }),
          nested: Type.Object({ deep: Type.Array(Type.Integer()) }, { ...closed, default: { deep: [1] } }),
          mode: Type.Union([Type.Literal('x'), Type.Literal('y')], { default: 'y' }),
          shape: Type.Union([Type.Object({ kind: Type.Literal('dot'), size: Type.Integer({ default: 2 }) }, closed), Type.Literal('none')], { default: 'none' }),
        },
        closed,
      ),
    );
    const first = validator.withDefaults({}) as { list: string[]; nested: { deep: number[] } };
    assert.deepEqual(first, { list: ['a', 'b'], nested: { deep: [1] }, mode: 'y', shape: 'none' });
    first.list.push('c');
    first.nested.deep.push(2);
    assert.deepEqual(validator.withDefaults({ mode: 'x', shape: { kind: 'dot' } }), { list: ['a', 'b'], nested: { deep: [1] }, mode: 'x', shape: { kind: 'dot', size: 2 } });
  });
});
