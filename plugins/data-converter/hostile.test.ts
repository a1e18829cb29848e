import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, workerJobRecorder } from '@toolshed/plugin-sdk/testing';
import dataConverter, { WORKER_THRESHOLD } from './index.js';
// Every outcome() is bounded by the SDK's HANG_GUARD_MS (test-helpers.ts), which is why
// scripts/run-tests.mjs runs this file on its own.
import { outcome } from './test-helpers.js';

const MiB = 1024 * 1024;

function aliasBomb(): string {
  // Nine levels of nine aliases: 9^9 ≈ 387 million "lol" when expanded.
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${String.fromCharCode(96 + level)}`).join(',')}]`);
  }
  return lines.join('\n');
}

describe('data-converter.convert: hostile input', () => {
  it('answers a billion-laughs alias bomb with 422 input_too_complex, for every source setting', async () => {
    assert.equal(await outcome({ input: aliasBomb(), to: 'json' }), 'input_too_complex');
    assert.equal(await outcome({ input: aliasBomb(), from: 'yaml', to: 'csv' }), 'input_too_complex');
    // Padded past the worker threshold, the same bomb goes through the worker pool.
    assert.equal(await outcome({ input: `${aliasBomb()}\n#${' '.repeat(WORKER_THRESHOLD)}`, to: 'yaml' }), 'input_too_complex');
  });

  it('resolves 60,000 aliases in one pass (Alias.resolve walks the whole document per alias: quadratic)', async () => {
    const input = `a: &a x\nb: [${Array(60_000).fill('*a').join(', ')}]\n`;
    // A minute's budget: the linear pass takes a fraction of a second even on a busy machine, while a
    // quadratic one (60,000 walks of the document) would not finish within it. The default 2 s
    // budget once ran out on a loaded CI machine.
    const result = (await invoke(dataConverter, 'convert', { input, to: 'json', indent: 0 }, { config: { timeoutMs: 60_000 } })) as { output: string };
    assert.equal(result.output, `{"a":"x","b":[${Array(60_000).fill('"x"').join(',')}]}`);
  });

  it('refuses a few aliases of one big string that would expand past the output cap', async () => {
    const input = `a: &a "${'x'.repeat(60_000)}"\nb: [${Array(1000).fill('*a').join(',')}]\n`;
    assert.equal(await outcome({ input, to: 'json' }), 'output_too_large');
  });

  it('never runs !!js/function: the text comes back as a string', async () => {
    const result = (await invoke(dataConverter, 'convert', {
      input: 'run: !!js/function "function () { process.exit(3) }"\n',
      to: 'json',
      indent: 0,
    })) as { output: string };
    assert.equal(result.output, '{"run":"function () { process.exit(3) }"}');
  });

  it('refuses nesting 100,000 deep in every format without a crash', async () => {
    assert.equal(await outcome({ input: '['.repeat(100_000), to: 'yaml' }), 'input_too_complex');
    assert.equal(await outcome({ input: '['.repeat(100_000), from: 'yaml', to: 'json' }), 'input_too_complex');
    assert.equal(await outcome({ input: '- '.repeat(100_000), from: 'yaml', to: 'json' }), 'input_too_complex');
    // Invalid shapes that yaml's error recovery still nests: an unguarded parse would abort the process.
    for (const unit of ['a: b: ', '-\t', '- [', '? - ', '{a: ']) {
      assert.equal(await outcome({ input: unit.repeat(20_000), from: 'yaml', to: 'json' }), 'input_too_complex', unit);
      const here = unit.repeat(Math.floor(WORKER_THRESHOLD / unit.length)); // on the main thread
      assert.equal(await outcome({ input: here, from: 'yaml', to: 'json' }), 'input_too_complex', unit);
    }
    // Deep enough for JSON (500 < 1000) but not for YAML output.
    assert.equal(await outcome({ input: '['.repeat(500) + ']'.repeat(500), to: 'json' }), 'ok');
    assert.equal(await outcome({ input: '['.repeat(500) + ']'.repeat(500), to: 'yaml' }), 'input_too_complex');
  });

  it('converts an input over 1 KiB on the pool, and one of 1 KiB here', async () => {
    // A YAML text costs the main thread about 2-6 ms a KiB to read; 60 KiB held it 0.3 s.
    assert.equal(WORKER_THRESHOLD, 1024);
    const { runInWorker, jobs } = workerJobRecorder();
    const yamlOf = (length: number) => `a: ${'x'.repeat(length - 4)}\n`;
    const convert = (input: string) => invoke(dataConverter, 'convert', { input, to: 'json', indent: 0 }, { runInWorker }) as Promise<{ output: string }>;
    assert.deepEqual(await convert(yamlOf(WORKER_THRESHOLD)), { output: `{"a":"${'x'.repeat(WORKER_THRESHOLD - 4)}"}`, from: 'yaml' });
    assert.deepEqual(jobs, []);
    assert.deepEqual(await convert(yamlOf(WORKER_THRESHOLD + 1)), { output: `{"a":"${'x'.repeat(WORKER_THRESHOLD - 3)}"}`, from: 'yaml' });
    assert.deepEqual(jobs, ['convertData']);
  });

  it('refuses sparse rows whose union of keys would make millions of empty cells', async () => {
    const rows = Array.from({ length: 4000 }, (_, index) => `{"k${index}":1}`);
    assert.equal(await outcome({ input: `[${rows.join(',')}]`, to: 'csv' }), 'output_too_large');
  });

  it('answers input_too_complex past the configured time budget (dataConverter.timeoutMs)', async () => {
    // fast-csv alone needs far longer than 100 ms to read 10 MiB on any machine.
    const input = 'abc,def,"ghi,jk",12345\n'.repeat(450_000);
    await assert.rejects(invoke(dataConverter, 'convert', { input, to: 'json' }, { config: { timeoutMs: 100 } }), {
      status: 422,
      code: 'input_too_complex',
      message: 'The conversion did not finish within 100 ms',
    });
  });

  it('reads 10 MiB of spaces as an empty YAML document: unsupported_input, not a nesting refusal', async () => {
    // A budget near the hang guard: this is about the answer, and a busy CI machine once needed over 9 s.
    assert.equal(await outcome({ input: ' '.repeat(10 * MiB), to: 'json' }, 25_000), 'unsupported_input');
  });
  // 10 MiB inputs of every kind while small requests keep answering: test/host-threads/data-converter.test.ts,
  // which hands invoke() the host's worker threads.
});
