// Every worked example in docs/recipes.md is run here: a `json recipe` block is run and compared
// with the `json answer` or `json error` block after it; a `json identify` block likewise.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { identify } from './identify.js';
import { runRecipe } from './run.js';
import { answerValue } from './executor.js';

const doc = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/^```json (recipe|answer|error|identify|identify-answer)\n([\s\S]*?)^```$/gm)].map((match) => ({ kind: match[1]!, value: JSON.parse(match[2]!) as unknown }));

let executor: FakeExecutor;
before(async () => {
  executor = await fakeExecutor();
});

describe('docs/recipes.md', () => {
  it('has worked examples, each followed by its answer', () => {
    assert.ok(blocks.filter((block) => block.kind === 'recipe').length >= 5);
    blocks.forEach((block, index) => {
      if (block.kind === 'recipe') assert.match(blocks[index + 1]?.kind ?? '', /^(answer|error)$/);
      if (block.kind === 'identify') assert.equal(blocks[index + 1]?.kind, 'identify-answer');
    });
  });

  it('answers each example as the page shows', async () => {
    for (const [index, block] of blocks.entries()) {
      const next = blocks[index + 1];
      if (block.kind === 'identify') assert.deepEqual(await identify(executor, block.value), next!.value);
      if (block.kind !== 'recipe') continue;
      if (next!.kind === 'answer') {
        assert.deepEqual(answerValue(await runRecipe(executor, block.value)), next!.value);
        continue;
      }
      const error = await runRecipe(executor, block.value).then(() => undefined, (caught: unknown) => caught);
      assert.ok(isToolshedError(error));
      const expected = next!.value as { status: number; code: string; details?: unknown; path?: string };
      assert.equal(error.status, expected.status);
      assert.equal(error.code, expected.code);
      if (expected.details !== undefined) assert.deepEqual(error.details, expected.details);
      if (expected.path !== undefined) assert.equal(error.details?.[0]?.path, expected.path);
    }
  });
});
