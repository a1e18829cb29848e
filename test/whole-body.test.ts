// A large body with a Content-Length is read into one buffer of that length as it arrives, counted
// against the reading budget as its bytes arrive, never as declared (kernel/http/middleware/body.ts):
// a client that declares 10 MiB and sends one byte holds one byte of the budget (issue 44). The chunks
// are pushed by hand into a request on an unconnected socket: what is counted is visible at each step.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { BODY_LIMIT } from '../kernel/host/json-body.js';
import { BYTES_PER_PIECE, FREE_PIECES } from '../kernel/host/pieces.js';
import { SMALL_CHUNK_BYTES, SMALL_RUN } from '../kernel/http/body-chunks.js';
import { readBody, readBytes, WHOLE_BODY_FROM_BYTES } from '../kernel/http/middleware/body.js';
import { ReadingBudget } from '../kernel/http/reading-budget.js';

const KiB = 1024;
const declared = WHOLE_BODY_FROM_BYTES + 100 * KiB;

/** A request declaring `length` bytes; its body is what the test pushes. */
function request(length: number): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers['content-length'] = String(length);
  return req;
}

/** Chunks of 64 KiB (the last one shorter) making up `total` bytes, each filled with its own index. */
function chunksOf(total: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0, index = 0; offset < total; offset += 64 * KiB, index++) chunks.push(Buffer.alloc(Math.min(64 * KiB, total - offset), index % 256));
  return chunks;
}

/** A reading budget of `bytes` with no share per client and no rate floor: the budget alone. */
const budgetOf = (bytes: number): ReadingBudget => new ReadingBudget({ readingBytes: bytes, readingBytesPerClient: bytes, minBodyBytesPerSecond: 0, bodyRateGraceMs: 5000 });

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The first chunk arrives and the reader takes it. */
async function firstArrives(req: IncomingMessage, chunks: readonly Buffer[]): Promise<void> {
  req.push(chunks[0]);
  await tick();
}

/** The other chunks arrive, and the body ends. */
function restArrives(req: IncomingMessage, chunks: readonly Buffer[]): void {
  for (const chunk of chunks.slice(1)) req.push(chunk);
  req.push(null);
}

describe('a large declared body, read whole', () => {
  it('counts what arrived, not what was declared, and returns the bytes in one buffer of the declared length', async () => {
    const budget = budgetOf(128 * 2 ** 20);
    const req = request(declared);
    const reading = readBytes(req, BODY_LIMIT, budget);
    const chunks = chunksOf(declared);
    await firstArrives(req, chunks);
    // The first chunk, not the declared length.
    assert.equal(budget.inUse, 64 * KiB);
    restArrives(req, chunks);
    const body = await reading;
    assert.deepEqual(body, Buffer.concat(chunks));
    assert.equal(body.buffer.byteLength, declared, 'one buffer the body owns, movable to a worker without a copy');
    // The caller gives back body.length once the answer is done.
    assert.equal(budget.inUse, declared);
  });

  it('gives back what it counted when the client leaves halfway', async () => {
    const budget = budgetOf(128 * 2 ** 20);
    const req = request(declared);
    const reading = readBytes(req, BODY_LIMIT, budget);
    req.push(chunksOf(declared)[0]);
    await tick();
    assert.equal(budget.inUse, 64 * KiB);
    req.emit('aborted');
    await assert.rejects(reading, (error: Error & { status?: number }) => error.status === 400);
    assert.equal(budget.inUse, 0);
  });

  it('refuses the body once its bytes pass the budget another request shares', async () => {
    const budget = budgetOf(declared - 1);
    // Another request holds a byte: this body's last chunks pass the budget.
    assert.equal(budget.take(budget.open('another client', () => undefined), 1), undefined);
    const req = request(declared);
    const reading = readBytes(req, BODY_LIMIT, budget);
    const chunks = chunksOf(declared);
    await firstArrives(req, chunks);
    assert.equal(budget.inUse, 1 + 64 * KiB);
    restArrives(req, chunks);
    // The body passes the budget before its end: 503.
    await assert.rejects(reading, (error: Error & { status?: number; code?: string }) => error.status === 503 && error.code === 'server_busy');
    assert.equal(budget.inUse, 1);
  });

  it('reads a body under WHOLE_BODY_FROM_BYTES chunk by chunk', async () => {
    const budget = budgetOf(128 * 2 ** 20);
    const small = WHOLE_BODY_FROM_BYTES - 1;
    const req = request(small);
    const reading = readBytes(req, BODY_LIMIT, budget);
    const chunks = chunksOf(small);
    await firstArrives(req, chunks);
    assert.equal(budget.inUse, 64 * KiB);
    restArrives(req, chunks);
    assert.deepEqual(await reading, Buffer.concat(chunks));
  });
});

describe('a body read for the executor (readBody)', () => {
  it('comes as the chunks it arrived in, unjoined, each counted as it arrives', async () => {
    const budget = budgetOf(128 * 2 ** 20);
    const req = request(declared);
    const reading = readBody(req, BODY_LIMIT, budget);
    const chunks = chunksOf(declared);
    await firstArrives(req, chunks);
    assert.equal(budget.inUse, 64 * KiB);
    restArrives(req, chunks);
    const body = await reading;
    assert.ok(Array.isArray(body));
    assert.equal(body.length, chunks.length);
    // The very buffers that arrived: moved to a worker as they are, never copied on the main thread.
    body.forEach((chunk, index) => assert.equal(chunk.buffer, chunks[index]!.buffer));
    assert.equal(budget.inUse, declared);
  });

  it('comes as its one buffer when it arrived in one chunk', async () => {
    const req = request(100);
    const reading = readBody(req, BODY_LIMIT, budgetOf(2 ** 20));
    const chunk = Buffer.alloc(100, 1);
    req.push(chunk);
    req.push(null);
    assert.equal(await reading, chunk);
  });
});

/** A request with no Content-Length (a chunked body) whose `pieces` of `size` bytes each arrive one by one, then its end. */
function arriveInPieces(pieces: number, size: number): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  setImmediate(() => {
    for (let index = 0; index < pieces; index++) req.push(Buffer.alloc(size, index % 256));
    req.push(null);
  });
  return req;
}

const isFragmented = (error: Error & { status?: number; code?: string }): boolean =>
  error.status === 400 && error.code === 'bad_request' && /too many small pieces/.test(error.message);

describe('a body of many small pieces (a chunk each, in a chunked body)', () => {
  it(`is read in up to ${FREE_PIECES} pieces whatever their size`, async () => {
    const body = await readBytes(arriveInPieces(FREE_PIECES, 1), BODY_LIMIT, budgetOf(2 ** 20));
    assert.equal(body.length, FREE_PIECES);
  });

  it(`is cut past ${FREE_PIECES} pieces and one per ${BYTES_PER_PIECE} bytes, its budget given back`, async () => {
    const budget = budgetOf(2 ** 20);
    // 1-byte pieces: the 1,029th passes 1,024 + 1,029 / 256.
    await assert.rejects(readBytes(arriveInPieces(2 * FREE_PIECES, 1), BODY_LIMIT, budget), isFragmented);
    assert.equal(budget.inUse, 0);
    // Pieces of half the rule's size: the 2,049th passes 1,024 + 2,049 / 2.
    await assert.rejects(readBody(arriveInPieces(4 * FREE_PIECES, BYTES_PER_PIECE / 2), BODY_LIMIT, budgetOf(BODY_LIMIT)), isFragmented);
  });

  it('is cut the same when it is compressed: the pieces on the wire count', async () => {
    // Random text compresses to about its size: 3,000 bytes of gzip, sent a byte at a time.
    const zipped = gzipSync(JSON.stringify({ text: randomBytes(2200).toString('base64') }));
    assert.ok(zipped.length > 2 * FREE_PIECES);
    const req = new IncomingMessage(new Socket());
    req.headers['content-encoding'] = 'gzip';
    setImmediate(() => {
      for (const byte of zipped) req.push(Buffer.of(byte));
      req.push(null);
    });
    await assert.rejects(readBody(req, BODY_LIMIT, budgetOf(2 ** 20)), isFragmented);
  });

  it(`is read in pieces of ${BYTES_PER_PIECE} bytes, joined in runs so that the body is a few buffers`, async () => {
    const pieces = 4 * FREE_PIECES;
    const body = await readBody(arriveInPieces(pieces, BYTES_PER_PIECE), BODY_LIMIT, budgetOf(BODY_LIMIT));
    assert.ok(Array.isArray(body));
    // 64 pieces of 256 bytes are 16 KiB: each run is joined at both bounds at once.
    assert.equal(SMALL_RUN * BYTES_PER_PIECE, SMALL_CHUNK_BYTES);
    assert.equal(body.length, pieces / SMALL_RUN);
    const expected = Buffer.concat(Array.from({ length: pieces }, (_, index) => Buffer.alloc(BYTES_PER_PIECE, index % 256)));
    assert.deepEqual(Buffer.concat(body), expected);
  });

  it('joins a run of small pieces when a large chunk comes, and keeps the large chunk as it came', async () => {
    const req = new IncomingMessage(new Socket());
    const large = Buffer.alloc(SMALL_CHUNK_BYTES, 7);
    const reading = readBody(req, BODY_LIMIT, budgetOf(2 ** 20));
    req.push(Buffer.from('ab'));
    req.push(Buffer.from('c'));
    req.push(large);
    req.push(Buffer.from('d'));
    req.push(null);
    const body = await reading;
    assert.ok(Array.isArray(body));
    assert.deepEqual(body.map((chunk) => chunk.length), [3, SMALL_CHUNK_BYTES, 1]);
    assert.equal(Buffer.from(body[0]!).toString(), 'abc');
    assert.equal(body[1], large);
  });
});

describe('a body once read', () => {
  it('leaves no listener of the reader on the request, whether it ended, broke a limit or was cut', async () => {
    const events = ['data', 'end', 'error', 'aborted', 'timeout'] as const;
    const ours = (req: IncomingMessage): Record<string, number> => Object.fromEntries(events.map((event) => [event, req.listenerCount(event)]));
    const none = Object.fromEntries(events.map((event) => [event, 0]));
    const ended = request(2);
    const read = readBody(ended, BODY_LIMIT, budgetOf(2 ** 20));
    ended.push('{}');
    ended.push(null);
    await read;
    assert.deepEqual(ours(ended), none);
    const over = request(10);
    const refused = readBody(over, 4, budgetOf(2 ** 20));
    over.push('0123456789');
    await assert.rejects(refused);
    assert.deepEqual(ours(over), none);
    const cut = request(10);
    const left = readBody(cut, BODY_LIMIT, budgetOf(2 ** 20));
    cut.push('01234');
    await tick();
    cut.emit('aborted');
    await assert.rejects(left);
    assert.deepEqual(ours(cut), none);
  });
});

