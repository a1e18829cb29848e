// The handler's answer is exactly the response schema's static type: a field the schema lacks is a
// compile error. `tsc -b` checks this file; an `@ts-expect-error` that no longer meets an error
// fails the build, so deleting the check in defineOperation breaks it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineOperation, definePlugin, Type } from './index.js';
import { invoke } from './testing.js';

const closed = { additionalProperties: false } as const;
const body = Type.Object({ text: Type.String({ maxLength: 100 }) }, closed);
const response = Type.Object({ reversed: Type.String(), parts: Type.Array(Type.Object({ at: Type.Integer() }, closed)) }, closed);
const examples = [{ body: { text: 'ab' }, response: { reversed: 'ba', parts: [] } }];

describe('a handler returning a field its response schema lacks', () => {
  it('does not compile, at the top, nested, sync or async; exact answers do', async () => {
    defineOperation({
      summary: 'extra field',
      body,
      response,
      examples,
      // @ts-expect-error -- `extra` is not in the response schema
      handler: ({ text }) => ({ reversed: text, parts: [], extra: 1 }),
    });
    defineOperation({
      summary: 'extra field, async',
      body,
      response,
      examples,
      // @ts-expect-error -- `extra` is not in the response schema
      handler: async ({ text }) => ({ reversed: text, parts: [], extra: 1 }),
    });
    defineOperation({
      summary: 'extra nested field',
      body,
      response,
      examples,
      // @ts-expect-error -- `parts[].extra` is not in the item schema
      handler: ({ text }) => ({ reversed: text, parts: [{ at: 0, extra: true }] }),
    });
    const exact = defineOperation({
      summary: 'reverse',
      body,
      response,
      examples,
      handler: async ({ text }) => ({ reversed: [...text].reverse().join(''), parts: [...text].map((_, at) => ({ at })) }),
    });
    const plugin = definePlugin({ group: 'exact', sdk: '^1.0.0', operations: { reverse: exact } });
    assert.deepEqual(await invoke(plugin, 'reverse', { text: 'ab' }), { reversed: 'ba', parts: [{ at: 0 }, { at: 1 }] });
  });
});
