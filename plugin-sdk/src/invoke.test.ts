// invoke() is typed from the operation it runs: the answer has the static type of the response
// schema. The @ts-expect-error lines are the test of that: `tsc -b` (npm run typecheck, the build)
// fails when one of them compiles, that is, when the answer's type is lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineOperation, definePlugin, type Plugin } from './define.js';
import { invoke } from './invoke.js';
import { Type } from './typebox.js';
import { SDK_VERSION } from './version.js';

const closed = { additionalProperties: false } as const;
const numerals: readonly [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

const roman = definePlugin({
  group: 'roman-numerals',
  sdk: `^${SDK_VERSION}`,
  operations: {
    'to-roman': defineOperation({
      summary: 'An integer as a Roman numeral',
      body: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 3999 }) }, closed),
      response: Type.Object({ roman: Type.String({ maxLength: 15 }) }, closed),
      examples: [{ body: { n: 1990 }, response: { roman: 'MCMXC' } }],
      handler: ({ n }) => {
        let rest = n;
        let text = '';
        for (const [value, letters] of numerals) for (; rest >= value; rest -= value) text += letters;
        return { roman: text };
      },
    }),
  },
});

describe('invoke() types', () => {
  it('gives the answer the type of the response schema', async () => {
    // 1994 = M (1000) + CM (900) + XC (90) + IV (4).
    const { roman: text } = await invoke(roman, 'to-roman', { n: 1994 });
    const typed: string = text;
    assert.equal(typed, 'MCMXCIV');
    // @ts-expect-error the answer is { roman: string }: it has no field `numeral`
    const { numeral } = await invoke(roman, 'to-roman', { n: 4 });
    assert.equal(numeral, undefined);
    // @ts-expect-error `roman` is a string, not a number
    const wrong: number = (await invoke(roman, 'to-roman', { n: 4 })).roman;
    assert.equal(wrong, 'IV');
  });

  it('answers unknown for a plugin known only as Plugin, which a test must narrow itself', async () => {
    const loose: Plugin = roman;
    const answer = await invoke(loose, 'to-roman', { n: 9 });
    // @ts-expect-error the answer of an untyped plugin is unknown
    assert.equal(answer.roman, 'IX');
  });
});
