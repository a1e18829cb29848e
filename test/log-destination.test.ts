import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LogDestination } from '../kernel/host/log-destination.js';
import { flushThenExit } from '../kernel/host/logger.js';
import { tempFolder } from './support/temp-folder.js';

const folder = tempFolder('toolshed-log-');
let files = 0;
function destinationFile(maxPendingBytes?: number): { destination: LogDestination; read: () => string; close: () => void } {
  const file = path.join(folder, `log-${files++}`);
  const fd = openSync(file, 'w');
  return { destination: new LogDestination(fd, maxPendingBytes), read: () => readFileSync(file, 'utf8'), close: () => closeSync(fd) };
}
const flushed = (destination: LogDestination) => new Promise<void>((resolve) => destination.flush(resolve));

describe('the log destination', () => {
  it('writes every line, in order, across many 64 KiB chunks, once flushed', async () => {
    const { destination, read, close } = destinationFile();
    // 20,000 lines of 30–31 bytes ≈ 600 KB: ten chunks, written one after the other.
    const lines = Array.from({ length: 20_000 }, (_, index) => `{"n":${index},"text":"ünïcode"}\n`);
    for (const line of lines) destination.write(line);
    await flushed(destination);
    assert.equal(read(), lines.join(''));
    assert.equal(destination.dropped, 0);
    close();
  });

  it('takes a line longer than a chunk whole, after what came before it', async () => {
    const { destination, read, close } = destinationFile();
    const long = `${'x'.repeat(100_000)}\n`;
    destination.write('first\n');
    destination.write(long);
    destination.write('last\n');
    await flushed(destination);
    assert.equal(read(), `first\n${long}last\n`);
    close();
  });

  it('drops and counts whole lines once too much waits, instead of growing', async () => {
    // Nothing is written before the event loop turns, so with a cap of one chunk the first 64 KiB
    // chunk waits and every later one is dropped: 3,000 lines of 100 bytes are 4.6 chunks.
    const { destination, read, close } = destinationFile(64 * 1024);
    const line = `${'y'.repeat(99)}\n`;
    for (let index = 0; index < 3000; index++) destination.write(line);
    await flushed(destination);
    // A line goes into the chunk while used + 3 × 100 ≤ 65,536, so the chunk is sealed at 653 lines
    // (65,300 bytes): that one is written, the other 2,347 lines are dropped.
    assert.equal(read().length / 100, 653);
    assert.equal(destination.dropped, 3000 - 653);
    close();
  });

  it('writes what it holds before flushSync returns, for the last lines before an exit', () => {
    const { destination, read, close } = destinationFile();
    destination.write('shutting down\n');
    destination.write('stopped\n');
    assert.equal(destination.flushSync(), true);
    assert.equal(read(), 'shutting down\nstopped\n');
    close();
  });

  it('leaves a write under way to flush(): flushSync says false and nothing is written twice', async () => {
    const { destination, read, close } = destinationFile();
    // A line longer than a chunk is queued and its asynchronous write starts at once.
    const long = `${'x'.repeat(100_000)}\n`;
    destination.write(long);
    destination.write('after\n');
    assert.equal(destination.flushSync(), false);
    await flushed(destination);
    assert.equal(read(), `${long}after\n`);
    close();
  });

  it('flushThenExit exits once pino\'s last line is written: at once over this destination, after the flush over another', async () => {
    const { destination, read, close } = destinationFile();
    const logger = pino({ base: null, timestamp: false }, destination);
    logger.info('stopped');
    let exited = false;
    flushThenExit(logger, () => (exited = true), 60_000);
    assert.equal(exited, true);
    assert.equal(read(), '{"level":30,"msg":"stopped"}\n');
    close();
    // A stream of another kind: its flush decides.
    const lines: string[] = [];
    const other = pino({ base: null, timestamp: false }, { write: (line: string) => lines.push(line) });
    other.info('stopped');
    await new Promise<void>((resolve) => flushThenExit(other, resolve, 60_000));
    assert.deepEqual(lines, ['{"level":30,"msg":"stopped"}\n']);
  });

  it('serves pino: one JSON line per call', async () => {
    const { destination, read, close } = destinationFile();
    const logger = pino({ base: null, timestamp: false }, destination);
    logger.info({ status: 200 }, 'request');
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    assert.equal(read(), '{"level":30,"status":200,"msg":"request"}\n');
    close();
  });
});
