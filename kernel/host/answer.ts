/**
 * An operation's answer as every door receives it: its JSON, as produced (a string from the main
 * thread, UTF-8 bytes from a worker or for a long answer, or the parts of a recipe's), with its
 * UTF-8 size counted once. Doors hand `body` (or its `parts`) on as it is; the text and the value
 * are read only by those that need them.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { bufferOf, byteLengthOf } from './body-bytes.js';
import { jsonByteLength } from './json-length.js';

export interface Answer {
  /** The JSON text, or its UTF-8 bytes. */
  readonly body: string | Uint8Array;
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
  /**
   * The same bytes in order, when the answer is put together from other answers (a recipe's):
   * a door that writes parts writes these, and `body` joins them only when it is read.
   */
  readonly parts?: readonly Uint8Array[];
}

/**
 * An answer made of `parts` (a recipe's frame around its steps' answers), not joined: a 33 MB
 * step answer from the pool is sent as it came, where joining copied it once more on the main
 * thread (the loadtest's amplifying recipe held two answers and two copies, 132 MB of buffers).
 */
class PartsAnswer implements Answer {
  readonly bytes: number;
  #body: Uint8Array | undefined;

  constructor(readonly parts: readonly Uint8Array[]) {
    this.bytes = byteLengthOf(parts);
  }

  get body(): Uint8Array {
    return (this.#body ??= Buffer.concat(this.parts, this.bytes));
  }
}

/** `parts` (JSON texts and UTF-8 bytes, in order) as one answer, not joined: see {@link PartsAnswer}. */
export function answerOfParts(parts: readonly (string | Uint8Array)[]): Answer {
  return new PartsAnswer(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
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
  return typeof body === 'string' ? body : bufferOf(body).toString('utf8');
}

/** The answer parsed. */
export function answerValue(answer: Answer): unknown {
  return JSON.parse(answerText(answer)) as unknown;
}
