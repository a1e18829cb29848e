/**
 * Compresses answers of at least 1 KiB for clients that accept Brotli or gzip (the OpenAPI document:
 * 163 KB). Compression runs on libuv's thread pool, so a 10 MiB answer does not hold the event loop;
 * Brotli at quality 4 costs about what gzip's default does. zstd stays off (it exists only on newer
 * Node versions, and answers must not depend on the version), and so does deflate (clients
 * disagree on what it means).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compress from 'koa-compress';
import type { KernelMiddleware } from '../types.js';

/** Answers smaller than this go out as they are: their compression would cost more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const compressors = {
  br: (bytes: Buffer) => promisify(brotliCompress)(bytes, brotliOptions),
  gzip: (bytes: Buffer) => promisify(gzip)(bytes),
};
type Encoding = keyof typeof compressors;

/** Compressed copies of GET answers, by content; few, since GET answers are the same for everyone. */
const MAX_CACHED = 64;

/**
 * True when the answer is under the threshold. A string's UTF-8 is at most 3 bytes per code unit,
 * so only strings of 342–1,023 code units are counted: hash's five digests (under 1 KiB) went
 * through koa-compress's look-ups only to be sent as they were.
 */
export function small(body: unknown): boolean {
  if (typeof body === 'string') {
    if (body.length * 3 < COMPRESS_THRESHOLD_BYTES) return true;
    return body.length < COMPRESS_THRESHOLD_BYTES && Buffer.byteLength(body) < COMPRESS_THRESHOLD_BYTES;
  }
  if (body instanceof Uint8Array) return body.byteLength < COMPRESS_THRESHOLD_BYTES;
  return body === undefined || body === null;
}

const resolved = (): Promise<void> => Promise.resolve();

export function compressAnswers(): KernelMiddleware {
  const compressOnTheFly = compress({ threshold: COMPRESS_THRESHOLD_BYTES, br: brotliOptions, gzip: {}, deflate: false, zstd: false }) as KernelMiddleware;
  // GET answers (the OpenAPI document, the /docs files) never change and /docs is not rate-limited:
  // each is compressed once per encoding, so a client fetching a 1.4 MB script in a loop costs no CPU.
  const cached = new Map<string | Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();
  function compressedOnce(body: string | Buffer, encoding: Encoding): Promise<Buffer> {
    let copies = cached.get(body);
    if (copies === undefined) {
      if (cached.size >= MAX_CACHED) cached.delete(cached.keys().next().value!);
      cached.set(body, (copies = {}));
    }
    return (copies[encoding] ??= compressors[encoding](typeof body === 'string' ? Buffer.from(body) : body));
  }
  // koa-compress does its work on every answer (Vary, type and size look-ups, negotiation) even
  // when it sends the answer as it is: the many small answers skip it, and only large ones pay.
  return async function compressAnswer(ctx, next) {
    await next();
    const body: unknown = ctx.body;
    if (small(body)) return;
    if (ctx.method !== 'GET' || ctx.status !== 200 || !(typeof body === 'string' || Buffer.isBuffer(body))) {
      await compressOnTheFly(ctx, resolved);
      return;
    }
    ctx.vary('Accept-Encoding');
    // As koa-compress does on a tie: br when the client takes it at all, else gzip.
    const encoding: Encoding | undefined = ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : undefined;
    if (encoding === undefined) return;
    ctx.body = await compressedOnce(body, encoding);
    ctx.set('Content-Encoding', encoding);
  };
}
