/**
 * Reads an operation's JSON body: media type checked before reading, gzip/deflate/br decoded, the
 * 10 MiB cap enforced on the bytes as they arrive (raw and decoded, with or without Content-Length),
 * each byte counted against the reading budget as it arrives (kernel/http/reading-budget.ts: the
 * budget, the client's share, the rate floor). Error messages give a position, never the body's content.
 */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BYTES_PER_PIECE, FREE_PIECES, joinedBytes, tooManyPieces, type BodyBytes } from '../../host/index.js';
import { BodyChunks } from '../body-chunks.js';
import { HttpError } from '../http-error.js';
import type { BodyHold, ReadingBudget } from '../reading-budget.js';

const jsonMediaType = /^application\/(?:json|[a-z0-9!#$&^_.-]+\+json)$/;

function tooLarge(limit: number): HttpError {
  // Connection: close, so the unread rest of the body is never parsed as a next request.
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`, { Connection: 'close' });
}

const clientLeft = (): HttpError => new HttpError(400, 'invalid_json', 'The client aborted the request body');

const tooFragmented = (): HttpError =>
  new HttpError(400, 'bad_request', `The request body arrives in too many small pieces (more than ${FREE_PIECES}, and more than one per ${BYTES_PER_PIECE} bytes); send it in larger chunks`, {
    Connection: 'close',
  });

function decoderFor(encoding: string | undefined): Transform | undefined {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  throw new HttpError(415, 'unsupported_media_type', 'Content-Encoding must be gzip, deflate, br or identity');
}

/**
 * Declared bodies from this size are copied into one buffer of the declared length as they arrive
 * when they must be read as one buffer ({@link readBytes}): joined at the end, a body of megabytes
 * held the event loop for the whole copy in one go. The buffer is allocated untouched, so it is
 * resident only as far as bytes came; the budget counts those.
 */
export const WHOLE_BODY_FROM_BYTES = 2 ** 20;

/**
 * Collects the request's bytes as one buffer, refusing more than `limit` (before or after
 * decoding). The bytes held count against `reading` as `client`'s: on failure they are given back
 * here, on success the caller gives back `bytes.length` once the body is consumed
 * (`reading.give(client, …)`).
 */
export async function readBytes(req: IncomingMessage, limit: number, reading?: ReadingBudget, client = ''): Promise<Buffer> {
  return (await collect(req, limit, reading, client, true)) as Buffer;
}

/**
 * {@link readBytes}, but a body of several chunks comes as those chunks, unjoined: a large body is
 * joined on the pool worker it moves to (kernel/host/body-bytes.ts), or here if it runs here.
 */
export function readBody(req: IncomingMessage, limit: number, reading?: ReadingBudget, client = ''): Promise<BodyBytes> {
  return collect(req, limit, reading, client, false);
}

function collect(req: IncomingMessage, limit: number, reading: ReadingBudget | undefined, client: string, join: boolean): Promise<BodyBytes> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  // The client left while the request waited (its turn, the rate limit's store): a destroyed stream
  // emits nothing more, so waiting for its end would never settle.
  if (req.destroyed) return Promise.reject(clientLeft());
  const decoder = decoderFor(req.headers['content-encoding']);
  return new Promise((resolve, reject) => {
    const chunks = new BodyChunks();
    // Read as one buffer, a large body whose length is declared goes straight into one buffer of
    // that length (see WHOLE_BODY_FROM_BYTES); otherwise its chunks are joined at the end, or not.
    let whole: Buffer | undefined;
    let size = 0;
    let raw = 0;
    let pieces = 0;
    let done = false;
    const source = decoder ?? req;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      // Every listener goes with the body: one left on the request would keep this whole reading
      // alive with it. A request emits 'error' only to a listener; a decoder's stays, so an error
      // it had queued before it was destroyed still lands here (finish runs once).
      source.removeListener('data', onData);
      source.removeListener('end', onEnd);
      if (decoder === undefined) req.removeListener('error', onError);
      req.removeListener('data', onRaw);
      req.removeListener('aborted', onAborted);
      req.removeListener('timeout', onSilence);
      req.pause();
      if (hold !== undefined) reading!.end(hold, error === undefined);
      if (error) {
        reject(error);
      } else if (whole !== undefined) {
        resolve(size === whole.length ? whole : whole.subarray(0, size));
      } else {
        const list = chunks.list();
        if (list.length === 0) resolve(Buffer.alloc(0));
        else resolve(join ? joinedBytes(list) : list.length === 1 ? list[0]! : list);
      }
    };
    // Opened before any byte is read: the rate floor counts from here.
    const hold: BodyHold | undefined = reading?.open(client, finish);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return finish(tooLarge(limit));
      if (decoder === undefined && tooManyPieces(++pieces, size)) return finish(tooFragmented());
      if (hold !== undefined) {
        if (decoder === undefined) hold.received += chunk.length;
        // Counted as the bytes arrive, never as declared: a client that declares 10 MiB and sends one byte holds one byte.
        const refusal = reading!.take(hold, chunk.length);
        if (refusal !== undefined) return finish(refusal);
      }
      if (join && whole === undefined && size === chunk.length && decoder === undefined && declared >= WHOLE_BODY_FROM_BYTES) whole = Buffer.allocUnsafeSlow(declared);
      if (whole === undefined) {
        chunks.add(chunk);
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
      if (hold !== undefined) hold.received += chunk.length;
      if (raw > limit) finish(tooLarge(limit));
      else if (tooManyPieces(++pieces, raw)) finish(tooFragmented());
    };
    const onEnd = (): void => finish();
    const onError = (): void =>
      finish(decoder ? new HttpError(400, 'invalid_json', 'The request body could not be decompressed') : new HttpError(400, 'invalid_json', 'The request body could not be read'));
    const onAborted = (): void => finish(clientLeft());
    // `on`, not `once`: finish removes them all, and `once` makes a wrapper for each of the four.
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    req.on('aborted', onAborted);
    req.on('timeout', onSilence);
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
  // The type nearly every client sends, accepted without splitting it into parameters. None at all
  // is refused too: a browser sends a POST without one cross-origin with no preflight, whatever
  // cors.origins says (the contract's rule 1 asks every client for application/json).
  if (type !== 'application/json') {
    if (type === undefined || !jsonMediaType.test(type.split(';', 1)[0]!.trim().toLowerCase())) {
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

/** Checks the request's framing headers and reads its body bytes (408/413/415/429/501/503 as they apply). */
export function readJsonBytes(req: IncomingMessage, limit: number, reading?: ReadingBudget, client?: string): Promise<Buffer> {
  checkFraming(req.headers);
  return readBytes(req, limit, reading, client);
}

/** {@link readJsonBytes}, the body's chunks unjoined ({@link readBody}). */
export function readJsonBody(req: IncomingMessage, limit: number, reading?: ReadingBudget, client?: string): Promise<BodyBytes> {
  checkFraming(req.headers);
  return readBody(req, limit, reading, client);
}
