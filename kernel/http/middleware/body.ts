/**
 * Reads an operation's JSON body: media type checked before reading, gzip/deflate/br decoded, the
 * 10 MiB cap enforced on the bytes as they arrive (raw and decoded, with or without Content-Length),
 * UTF-8 checked, parsed. Error messages give a position, never the body's content.
 */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ByteBudget } from '../../host/index.js';
import { HttpError } from '../http-error.js';

const jsonMediaType = /^application\/(?:json|[a-z0-9!#$&^_.-]+\+json)$/;

function tooLarge(limit: number): HttpError {
  // Connection: close, so the unread rest of the body is never parsed as a next request.
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`, { Connection: 'close' });
}

/** 503 with Connection: close: the reading budget is spent and the rest of the body is not read. */
const readingSpent = (): HttpError =>
  new HttpError(503, 'server_busy', 'The service is reading too much data at once; retry shortly', { 'Retry-After': '1', Connection: 'close' });

const clientLeft = (): HttpError => new HttpError(400, 'invalid_json', 'The client aborted the request body');

function decoderFor(encoding: string | undefined): Transform | undefined {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  throw new HttpError(415, 'unsupported_media_type', 'Content-Encoding must be gzip, deflate, br or identity');
}

/**
 * Declared bodies from this size are copied into one buffer of the declared length as they arrive:
 * joined at the end, a body of megabytes held the event loop for the whole copy in one go. The
 * buffer is allocated untouched, so it is resident only as far as bytes came; the budget counts those.
 */
export const WHOLE_BODY_FROM_BYTES = 2 ** 20;

/**
 * Collects the request's bytes, refusing more than `limit` (before or after decoding). The bytes
 * held count against `budget`: on failure they are given back here, on success the caller gives
 * back `bytes.length` once the answer is done.
 */
export function readBytes(req: IncomingMessage, limit: number, budget?: ByteBudget): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  // The client left while the request waited (its turn, the rate limit's store): a destroyed stream
  // emits nothing more, so waiting for its end would never settle.
  if (req.destroyed) return Promise.reject(clientLeft());
  const decoder = decoderFor(req.headers['content-encoding']);
  let held = 0;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // A large body whose length is declared goes straight into one buffer of that length (see
    // wholeBodyBuffer); otherwise its chunks are joined at the end.
    let whole: Buffer | undefined;
    let size = 0;
    let raw = 0;
    let done = false;
    const source = decoder ?? req;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      source.removeListener('data', onData);
      req.removeListener('data', onRaw);
      req.removeListener('timeout', onSilence);
      req.pause();
      if (error) {
        budget?.give(held);
        reject(error);
      } else if (whole !== undefined) {
        resolve(size === whole.length ? whole : whole.subarray(0, size));
      } else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return finish(tooLarge(limit));
      // Counted as the bytes arrive, never as declared: a client that declares 10 MiB and sends one byte holds one byte.
      if (budget !== undefined && !budget.tryTake(chunk.length, held)) return finish(readingSpent());
      held += chunk.length;
      if (whole === undefined && size === chunk.length && decoder === undefined && declared >= WHOLE_BODY_FROM_BYTES) whole = Buffer.allocUnsafeSlow(declared);
      if (whole === undefined) {
        chunks.push(chunk);
        return;
      }
      // Node's parser ends a body at its Content-Length; more would be a broken parser, not a client.
      if (size > whole.length) return finish(tooLarge(whole.length));
      chunk.copy(whole, size - chunk.length);
    };
    // The socket was silent for server.writeTimeoutMs in the middle of the body: say so before the
    // close (Connection: close), instead of Node's bare close without an answer.
    const onSilence = (): void => finish(new HttpError(408, 'request_timeout', 'The request body stopped arriving', { Connection: 'close' }));
    const onRaw = (chunk: Buffer): void => {
      raw += chunk.length;
      if (raw > limit) finish(tooLarge(limit));
    };
    source.on('data', onData);
    source.once('end', () => finish());
    source.once('error', () =>
      finish(decoder ? new HttpError(400, 'invalid_json', 'The request body could not be decompressed') : new HttpError(400, 'invalid_json', 'The request body could not be read')),
    );
    req.once('aborted', () => finish(clientLeft()));
    req.once('timeout', onSilence);
    if (decoder) {
      req.on('data', onRaw);
      req.pipe(decoder);
    }
  });
}

/** True when a charset parameter names anything but UTF-8: JSON is UTF-8 (RFC 8259 §8.1) and is decoded as such. */
function foreignCharset(type: string): boolean {
  for (const parameter of type.split(';').slice(1)) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim().toLowerCase());
    if (name === 'charset' && !['utf-8', 'utf8', '"utf-8"'].includes(value)) return true;
  }
  return false;
}

function checkFraming(headers: IncomingMessage['headers']): void {
  const type = headers['content-type'];
  // The type nearly every client sends, accepted without splitting it into parameters.
  if (type !== undefined && type !== 'application/json') {
    if (!jsonMediaType.test(type.split(';', 1)[0]!.trim().toLowerCase())) {
      throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    if (foreignCharset(type)) throw new HttpError(415, 'unsupported_media_type', 'The body must be UTF-8 (charset=utf-8 or none)');
  }
  // Node's parser accepts "gzip, chunked" and hands over the still-encoded bytes; RFC 9112 §6.1
  // answers a transfer coding the server does not implement with 501.
  const transfer = headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    throw new HttpError(501, 'not_implemented', 'Transfer-Encoding must be chunked or absent (use Content-Encoding to compress)', { Connection: 'close' });
  }
}

/** Checks the request's framing headers and reads its body bytes (413/415/501/503 as they apply). */
export function readJsonBytes(req: IncomingMessage, limit: number, budget?: ByteBudget): Promise<Buffer> {
  checkFraming(req.headers);
  return readBytes(req, limit, budget);
}
