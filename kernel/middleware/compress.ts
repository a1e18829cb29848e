/**
 * Compresses answers of at least 1 KiB for clients that accept Brotli or gzip (the OpenAPI document:
 * 163 KB), with koa-compress. Compression runs in zlib streams, on libuv's thread pool, so a 10 MiB
 * answer does not hold the event loop; Brotli at quality 4 costs about what gzip's default does.
 * zstd stays off (it exists only on newer Node versions, and answers must not depend on the
 * version), and so does deflate (clients disagree on what it means).
 */
import compress from 'koa-compress';
import { constants } from 'node:zlib';
import type { KernelMiddleware } from '../types.js';

/** Answers smaller than this go out as they are: their compression would cost more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const resolved = (): Promise<void> => Promise.resolve();

/** True when the answer is surely under the threshold (a string's UTF-8 is at most 3 bytes per code unit). */
function surelySmall(body: unknown): boolean {
  if (typeof body === 'string') return body.length * 3 < COMPRESS_THRESHOLD_BYTES;
  if (body instanceof Uint8Array) return body.byteLength < COMPRESS_THRESHOLD_BYTES;
  return body === undefined || body === null;
}

export function compressAnswers(): KernelMiddleware {
  const compressLarge = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: {},
    deflate: false,
    zstd: false,
  }) as KernelMiddleware;
  // koa-compress costs about 10 µs per answer (Vary, type and size look-ups, negotiation) even
  // when it sends the answer as it is: the many small answers skip it, and only large ones pay.
  return async function compressAnswer(ctx, next) {
    await next();
    if (!surelySmall(ctx.body)) await compressLarge(ctx, resolved);
  };
}
