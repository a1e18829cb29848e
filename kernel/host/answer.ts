/**
 * An operation's answer as every door receives it: its JSON, as produced (a string from the main
 * thread, UTF-8 bytes from a worker or for a long answer), with its UTF-8 size counted once. Doors
 * hand `body` on as it is; the text and the value are read only by those that need them.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { jsonByteLength } from './json-length.js';

export interface Answer {
  /** The JSON text, or its UTF-8 bytes. */
  readonly body: string | Uint8Array;
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
}

/**
 * Answers at least this long (UTF-16 code units) are kept as their UTF-8 bytes, encoded once: as a
 * string, Koa would count its bytes for Content-Length and Node encode it again to write it.
 */
export const LONG_ANSWER_CHARS = 16 * 1024;

/** 422 `output_too_large`: an answer of `bytes` over the cap of `limit`. */
export function answerTooLarge(bytes: number, limit: number): UnprocessableError {
  return new UnprocessableError('output_too_large', `The answer would be ${bytes} bytes; at most ${limit} are sent`);
}

/** `body` as an answer, held to the answer cap (`server.maxAnswerBytes`). */
export function answerOf(body: string | Uint8Array, maxBytes: number): Answer {
  if (typeof body !== 'string') {
    if (body.byteLength > maxBytes) throw answerTooLarge(body.byteLength, maxBytes);
    return { body, bytes: body.byteLength };
  }
  // At most three UTF-8 bytes per code unit: one longer than the cap in characters is too large whatever its bytes, and is not encoded.
  if (body.length > maxBytes) throw answerTooLarge(body.length, maxBytes);
  if (body.length < LONG_ANSWER_CHARS) {
    const bytes = Buffer.byteLength(body);
    if (bytes > maxBytes) throw answerTooLarge(bytes, maxBytes);
    return { body, bytes };
  }
  const encoded = Buffer.from(body);
  if (encoded.byteLength > maxBytes) throw answerTooLarge(encoded.byteLength, maxBytes);
  return { body: encoded, bytes: encoded.byteLength };
}

/**
 * An answer nobody reads (RunRequest's `unread`), held to the answer cap by its counted length
 * (kernel/host/json-length.ts) instead of being written: the empty answer, or 422 `output_too_large`.
 */
export function unreadAnswer(result: unknown, maxBytes: number): Answer {
  const bytes = jsonByteLength(result);
  if (bytes > maxBytes) throw answerTooLarge(bytes, maxBytes);
  return { body: '', bytes: 0 };
}

/** The answer's JSON text. */
export function answerText(answer: Answer): string {
  const { body } = answer;
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** The answer parsed. */
export function answerValue(answer: Answer): unknown {
  return JSON.parse(answerText(answer)) as unknown;
}
