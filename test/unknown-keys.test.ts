// Every closed object of every built-in operation's body refuses a key it does not list, over HTTP:
// at the top level, inside nested objects, array items and each branch of a union. The names
// `prototype`, `__proto__` and `constructor` once passed inside qr-code-generator's `content` union
// (issue 22), because the default filler copied union values with TypeBox's Clone, which drops them.
// The bodies around each closed object come from json-schema-faker with fixed seeds, forced to reach
// it (or are the operation's examples), and are checked valid by the service's own validator
// before a key is added.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generate } from 'json-schema-faker';
import type { TSchema } from '@toolshed/plugin-sdk';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

type Node = Record<string, unknown>;
type Step = { readonly property: string } | { readonly item: true } | { readonly branch: number; readonly keyword: 'anyOf' | 'oneOf' };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const UNKNOWN_KEYS = ['prototype', '__proto__', 'constructor', 'unexpectedField'];

/** The route to every object schema with `additionalProperties: false` below `schema`, itself included. */
function closedObjects(schema: unknown, route: readonly Step[] = [], found: Step[][] = []): Step[][] {
  if (!isNode(schema)) return found;
  if (schema.additionalProperties === false) found.push([...route]);
  if (isNode(schema.properties)) for (const [name, child] of Object.entries(schema.properties)) closedObjects(child, [...route, { property: name }], found);
  if (isNode(schema.items)) closedObjects(schema.items, [...route, { item: true }], found);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) branches.forEach((branch, index) => closedObjects(branch, [...route, { branch: index, keyword }], found));
  }
  return found;
}

/** A copy of `schema` whose every instance reaches the end of `route`: its properties required, its arrays non-empty, its union branches chosen. */
function forced(schema: Node, route: readonly Step[]): Node {
  const [step, ...rest] = route;
  if (step === undefined) return schema;
  if ('branch' in step) return forced((schema[step.keyword] as Node[])[step.branch]!, rest);
  if ('item' in step) return { ...schema, minItems: Math.max(1, Number(schema.minItems ?? 0)), items: forced(schema.items as Node, rest) };
  const properties = schema.properties as Record<string, Node>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return { ...schema, required: [...new Set([...required, step.property])], properties: { ...properties, [step.property]: forced(properties[step.property]!, rest) } };
}

/** The JSON Pointer of the value at the end of `route`. */
const pointerOf = (route: readonly Step[]): string =>
  route.map((step) => ('property' in step ? `/${step.property.replace(/~/g, '~0').replace(/\//g, '~1')}` : 'item' in step ? '/0' : '')).join('');

/** The value at the end of `route` inside `body`. */
function reach(body: unknown, route: readonly Step[]): unknown {
  let value = body;
  for (const step of route) {
    if ('property' in step) value = isNode(value) ? value[step.property] : undefined;
    else if ('item' in step) value = Array.isArray(value) ? (value[0] as unknown) : undefined;
  }
  return value;
}

/** The property names the object schema at the end of `route` lists, in its order (an "unknown" key must not be one). */
function listedKeys(schema: Node, route: readonly Step[]): string[] {
  let target: unknown = schema;
  for (const step of route) {
    if (!isNode(target)) return [];
    if ('branch' in step) target = (target[step.keyword] as unknown[])[step.branch];
    else if ('item' in step) target = target.items;
    else target = isNode(target.properties) ? target.properties[step.property] : undefined;
  }
  return isNode(target) && isNode(target.properties) ? Object.keys(target.properties) : [];
}

let service: InProcessService;
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

describe('unknown keys in closed objects', () => {
  it('are refused with 400 naming the key, at every depth of every operation', async () => {
    let checked = 0;
    let nested = 0;
    for (const { path, operation } of service.registry.operations.values()) {
      const schema = JSON.parse(JSON.stringify(operation.definition.body)) as Node;
      const validator = compileSchema(operation.definition.body as TSchema);
      for (const route of closedObjects(schema)) {
        const pointer = pointerOf(route);
        const where = `${path} ${pointer || '(the body)'}`;
        let base: unknown;
        for (let seed = 1; seed <= 20 && base === undefined; seed++) {
          const candidate = await generate(forced(schema, route) as never, { seed });
          if (isNode(reach(candidate, route)) && validator.check(validator.withDefaults(structuredClone(candidate)))) base = candidate;
        }
        // json-schema-faker ignores if/then (unit-converter's unit ids per category): the
        // operation's own examples are valid bodies too.
        for (const example of operation.definition.examples ?? []) {
          if (base === undefined && isNode(reach(example.body, route)) && validator.check(validator.withDefaults(structuredClone(example.body)))) base = example.body;
        }
        assert.ok(base !== undefined, `${where}: no valid body reaches this object`);
        for (const key of UNKNOWN_KEYS.filter((name) => !listedKeys(schema, route).includes(name))) {
          const body = structuredClone(base) as Node;
          // An own "__proto__" key, as JSON.parse makes it (assignment would set the prototype instead).
          Object.defineProperty(reach(body, route), key, { value: 'x', enumerable: true, writable: true, configurable: true });
          const text = JSON.stringify(body);
          assert.ok(text.includes(`"${key}":"x"`), `${where}: the key is in the body`);
          const answer = await send(service.url, path, { body: text, headers: { 'Content-Type': 'application/json' } });
          assert.equal(answer.status, 400, `${where} ${key}: ${answer.text.slice(0, 300)}`);
          const error = (answer.json as { error: { code: string; details: { path: string; message: string }[] } }).error;
          assert.equal(error.code, 'validation_failed', `${where} ${key}`);
          // None of the keys tried is a typo of a listed one: the message lists the object's own names.
          const allowed = listedKeys(schema, route);
          const names = `${allowed.slice(0, 12).join(', ')}${allowed.length > 12 ? ', …' : ''}`;
          assert.deepEqual(error.details, [{ path: `${pointer}/${key}`, message: `is not an allowed property; allowed: ${names}` }], `${where} ${key}`);
          checked++;
        }
        if (route.length > 0) nested++;
      }
    }
    // Every operation's body is closed, and the QR code's content union alone has four closed branches.
    assert.ok(service.registry.operations.size >= 50 && checked >= 4 * service.registry.operations.size, `checked ${checked}`);
    assert.ok(nested >= 4, `nested closed objects: ${nested}`);
  });
});
