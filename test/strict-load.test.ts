// Strict at load (issue 21), the way ajv's strict mode is: a misspelt schema keyword stops the
// start, and a third-party plugin's body must bound every string and array or say why not.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { checkFan, MAX_CHECK_FAN } from '@toolshed/plugin-sdk/contract';
import { discoverPlugins } from '../kernel/host/discover.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { fixtures, buildTestService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const typoPlugins = path.join(fixtures, 'bad-plugins', 'typo-keyword');
const unboundedPlugins = path.join(fixtures, 'unbounded-plugins');
const costlyPlugins = path.join(fixtures, 'costly-schemas');

describe('a misspelt schema keyword', () => {
  it('stops the start, naming plugin, operation, JSON Pointer and the nearest keyword', async () => {
    const empty = tempFolder('toolshed-builtin-');
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
    const empty = tempFolder('toolshed-builtin-');
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

describe('a schema whose check costs far more than its size (issue 45, item 4)', () => {
  it('stops the start: a reference, which can make each level of a body of about 70 bytes check its child twice, defaults that make a small body a large one, and a union too wide, naming plugin, operation and place', async () => {
    const empty = tempFolder('toolshed-builtin-');
    await assert.rejects(buildTestService({ plugins: { dirs: [costlyPlugins] } }, { builtinDir: empty }), (error: Error) => {
      assert.match(error.message, /doubling/);
      const problems = error.message.split('\n').filter((line) => line.startsWith('- '));
      assert.deepEqual(problems, [
        '- operation "nest": body /properties/tree/$ref: a reference is not taken; write the schema it names in its place',
        '- operation "fill": body /properties/points/items/properties/x/default: a default inside items or a map is filled into each of its values; leave it to the handler',
        '- operation "fill": body /: its defaults add up to 23892 bytes of JSON (at most 4096), filled into every body that leaves them out',
        '- operation "pick": body /: a check could test one value against schema nodes weighing 82 (at most 64): its allOf, anyOf, oneOf, not, if and dependentSchemas branches are too many, or nest too deep',
      ]);
      return true;
    });
  });

  it('is asked of the built-ins as well, whose largest fan is unit-converter\'s body, 52', async () => {
    const fans: [string, number][] = [];
    for (const { plugin } of await discoverPlugins({ builtinDir: builtinPluginDir, dirs: [], packages: [] })) {
      for (const [name, operation] of Object.entries(plugin.operations)) {
        fans.push([`${plugin.group}/${name} body`, checkFan(operation.body)], [`${plugin.group}/${name} response`, checkFan(operation.response)]);
      }
    }
    fans.sort((a, b) => b[1] - a[1]);
    assert.deepEqual(fans.slice(0, 2), [['unit-converter/convert body', 52], ['word-counter/transform body', 36]]);
    assert.ok(fans[0]![1] <= MAX_CHECK_FAN);
  });
});
