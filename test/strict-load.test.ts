// Strict at load (issue 21), the way ajv's strict mode is: a misspelt schema keyword stops the
// start, and a third-party plugin's body must bound every string and array or say why not.
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { discoverPlugins } from '../kernel/host/discover.js';
import { send } from './support/http.js';
import { fixtures, buildTestService } from './support/service.js';

const typoPlugins = path.join(fixtures, 'bad-plugins', 'typo-keyword');
const unboundedPlugins = path.join(fixtures, 'unbounded-plugins');

describe('a misspelt schema keyword', () => {
  it('stops the start, naming plugin, operation, JSON Pointer and the nearest keyword', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'toolshed-builtin-'));
    await assert.rejects(buildTestService({ plugins: { dirs: [typoPlugins] } }, { builtinDir: empty }), (error: Error) => {
      assert.match(error.message, /^Cannot load the plugin .*typo-keyword\/index\.js:/);
      assert.ok(
        error.message.includes(
          'Invalid plugin "typo-keyword":\n- operation "square": body /properties/n/minimun: `minimun` is not a JSON Schema keyword: did you mean `minimum`?',
        ),
        error.message,
      );
      return true;
    });
  });
});

describe('bounds of a third-party plugin\'s body', () => {
  it('stops the start for a string without maxLength and an array without maxItems, naming each', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'toolshed-builtin-'));
    await assert.rejects(discoverPlugins({ builtinDir: empty, dirs: [unboundedPlugins], packages: [] }), (error: Error) => {
      const problems = error.message.split('\n').slice(1);
      // `document` says why with x-unbounded, `mode` is an enumeration, the tags' items have maxLength.
      assert.deepEqual(problems, [
        '- operation "count": body /properties/text: a string without maxLength (bound it, or give the reason it needs none as x-unbounded)',
        '- operation "count": body /properties/tags: an array without maxItems (bound it, or give the reason it needs none as x-unbounded)',
      ]);
      return true;
    });
  });

  it('is not asked of built-in plugins: the same plugin loads and answers as a built-in', async () => {
    const service = await buildTestService({}, { builtinDir: unboundedPlugins });
    try {
      const answer = await send(service.url, '/v1/unbounded/count', { body: { text: 'a b c', tags: ['x'], document: '' } });
      assert.deepEqual(answer.json, { words: 3, tags: 1 });
    } finally {
      await service.stop();
    }
  });
});
