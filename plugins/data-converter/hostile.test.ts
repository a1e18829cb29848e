import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke } from '@toolshed/plugin-sdk';
import dataConverter, { WORKER_THRESHOLD } from './index.js';

const MiB = 1024 * 1024;
const DOCUMENTED = new Set(Object.keys(dataConverter.errors ?? {}));

/** Converts and returns 'ok' or the documented 422 code; anything else (a 500, a crash) fails the test. */
/** The outcome of `body`; `timeoutMs` raises the budget where the answer, not the machine's speed, is asserted. */
async function outcome(body: Record<string, unknown>, timeoutMs?: number): Promise<string> {
  const started = performance.now();
  try {
    await invoke(dataConverter, 'convert', body, { config: timeoutMs === undefined ? undefined : { timeoutMs } });
    return 'ok';
  } catch (error) {
    const { status, code } = error as { status?: number; code?: string };
    assert.equal(status, 422, `expected a 422, got ${String(status)} ${String(code)}`);
    assert.ok(code !== undefined && DOCUMENTED.has(code), `undocumented code ${String(code)}`);
    return code;
  } finally {
    assert.ok(performance.now() - started < HANG_GUARD_MS, 'no hang');
  }
}

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
      assert.equal(await outcome({ input: unit.repeat(2_000), from: 'yaml', to: 'json' }), 'input_too_complex', unit); // main thread
    }
    // Deep enough for JSON (500 < 1000) but not for YAML output.
    assert.equal(await outcome({ input: '['.repeat(500) + ']'.repeat(500), to: 'json' }), 'ok');
    assert.equal(await outcome({ input: '['.repeat(500) + ']'.repeat(500), to: 'yaml' }), 'input_too_complex');
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
      const big = outcome(body).finally(() => {
        bigDone = true;
      });
      // A small conversion runs on the main thread while the big one is in the worker pool.
      const small = (await invoke(dataConverter, 'convert', { input: 'a,b\n1,2\n', to: 'json', indent: 0 })) as { output: string };
      assert.equal(small.output, '[{"a":"1","b":"2"}]');
      assert.equal(bigDone, false);
      assert.ok(['ok', ...DOCUMENTED].includes(await big));
    }
  });
});
