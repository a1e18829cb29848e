// data-converter's large inputs on the host's worker threads, with small requests answered on the
// main thread meanwhile: a test beside the plugin may not import the host (.dependency-cruiser.mjs),
// so this one lives here and hands invoke() the host's threads (service/testing.ts). Each outcome()
// is bounded by the SDK's HANG_GUARD_MS, so scripts/run-tests.mjs runs this file on its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import dataConverter from '../../plugins/data-converter/index.js';
import { DOCUMENTED, outcome } from '../../plugins/data-converter/test-helpers.js';
import { runInWorker } from '../../service/testing.js';

const MiB = 1024 * 1024;

describe('data-converter.convert: hostile input on the host\'s worker threads', () => {
  it('answers 10 MiB inputs of every kind with 200 or a documented 422, and keeps answering small requests meanwhile', async () => {
    const csvLine = 'abc,def,"ghi,jk",12345\n';
    const inputs: Record<string, unknown>[] = [
      { input: csvLine.repeat(Math.floor((10 * MiB) / csvLine.length)), to: 'csv' },
      { input: csvLine.repeat(Math.floor((10 * MiB) / csvLine.length)), to: 'json' },
      { input: `[${'{"id":17478252242305210114,"s":"x"},'.repeat(280_000)}{}]`, to: 'yaml' },
      { input: ' '.repeat(10 * MiB), to: 'json' },
      { input: ','.repeat(10 * MiB), to: 'json' },
      { input: `a,b\n${'\n'.repeat(10 * MiB)}`, to: 'json' },
      { input: `"${'\\u00e9'.repeat(MiB)}"`, from: 'json', to: 'yaml' },
      { input: `k: ${'[a, '.repeat(200)}${'x'.repeat(10 * MiB)}`, to: 'json' },
      { input: '"'.repeat(10 * MiB), from: 'csv', to: 'json' },
    ];
    for (const body of inputs) {
      let bigDone = false;
      // Half the default budget: five of these inputs run until it ends them (input_too_complex), so
      // the default's 2 s each was ten seconds of a busy core spent on a refusal this test already
      // sees at one.
      const big = outcome(body, 1000, runInWorker).finally(() => {
        bigDone = true;
      });
      // A small conversion runs on the main thread while the big one is in the worker pool.
      const small = (await invoke(dataConverter, 'convert', { input: 'a,b\n1,2\n', to: 'json', indent: 0 }, { runInWorker })) as { output: string };
      assert.equal(small.output, '[{"a":"1","b":"2"}]');
      assert.equal(bigDone, false);
      assert.ok(['ok', ...DOCUMENTED].includes(await big));
    }
  });

  it('reads a flat YAML map of 100,000 keys in one pass (yaml\'s uniqueKeys compares every pair: quadratic)', async () => {
    let input = '';
    for (let index = 0; index < 100_000; index++) input += `k${index}: ${index}\n`;
    // A budget far past what one pass needs (1.6 s on the 2-core development machine, a few times that
    // on a busy one) and far short of comparing every pair: 200 KB took 5 s so, these 1.4 MB minutes.
    const result = (await invoke(dataConverter, 'convert', { input, to: 'json', indent: 0 }, { config: { timeoutMs: 30_000 }, runInWorker })) as { output: string; from: string };
    assert.equal(result.from, 'yaml');
    assert.equal(result.output.length, 1_477_781);
    assert.ok(result.output.startsWith('{"k0":0,"k1":1,') && result.output.endsWith(',"k99999":99999}'));
  });
});
