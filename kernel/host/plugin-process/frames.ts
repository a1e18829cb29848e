/**
 * The wire between the service and a contained plugin's process: length-prefixed frames on the
 * process's stdin (the service's requests) and stdout (its answers). A frame is an 8-byte prefix
 * (the header's length and the payload's, big-endian), a header of JSON, and a payload of raw bytes
 * (a request body, an answer's JSON). Our own framing rather than Node's IPC channel: the reader
 * bounds every frame before it holds its bytes, so a process writing a frame of four gigabytes is
 * ended at its prefix, not after the service has buffered it (Node's channel buffers a message
 * whole, whatever its length).
 *
 * Both sides import this module. In a plugin's process it is evaluated before the plugin is
 * imported, so it keeps its own references to the built-ins it uses (JSON, TextDecoder, typed
 * arrays): a plugin that patches `Buffer.prototype.toString` or `JSON.parse` for its own ends does
 * not break its channel with them. (Nothing here is a defence: whatever a plugin's process sends is
 * checked by the service.)
 */
const { apply, getOwnPropertyDescriptor: descriptor } = Reflect;
const { min } = Math;
const { isArray } = Array;
const Bytes = Uint8Array;
const parse = JSON.parse;
const stringify = JSON.stringify;
const decoder = new TextDecoder();
const decode = TextDecoder.prototype.decode;
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const set = Uint8Array.prototype.set;
const subarray = Uint8Array.prototype.subarray;
const lengthOf = descriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, 'byteLength')!.get!;

/** The byte length of `bytes`. */
export const byteLength = (bytes: Uint8Array): number => apply(lengthOf, bytes, []) as number;
/** `bytes` from `start` to `end`, a view. */
export const slice = (bytes: Uint8Array, start: number, end?: number): Uint8Array => apply(subarray, bytes, [start, end]) as Uint8Array;
/** `text` as UTF-8. */
export const utf8 = (text: string): Uint8Array => apply(encode, encoder, [text]) as Uint8Array;
/** UTF-8 `bytes` as text (malformed sequences become U+FFFD). */
export const text = (bytes: Uint8Array): string => apply(decode, decoder, [bytes]) as string;
/** `JSON.parse` as it was before the plugin was imported. */
export const fromJson = (json: string): unknown => apply(parse, JSON, [json]);
/** `JSON.stringify` as it was before the plugin was imported. */
export const toJson = (value: unknown): string | undefined => apply(stringify, JSON, [value]) as string | undefined;

/** Bytes of a frame's prefix: header length and payload length, 32 bits each. */
const PREFIX_BYTES = 8;

function writeU32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

const readU32 = (bytes: Uint8Array, at: number): number => ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

/** One frame: its header (a JSON object) and its payload, a view into the bytes read. */
export interface Frame {
  readonly header: Readonly<Record<string, unknown>>;
  readonly payload: Uint8Array;
}

const EMPTY = new Bytes(0);

/** The frame `header` + `payload` as the bytes to write: one buffer when it is small, else the payload as it is, not copied. */
export function encodeFrame(header: object, payload: Uint8Array = EMPTY): Uint8Array[] {
  const head = utf8(toJson(header) ?? '{}');
  const headBytes = byteLength(head);
  const payloadBytes = byteLength(payload);
  const prefix = new Bytes(payloadBytes <= 16_384 ? PREFIX_BYTES + headBytes + payloadBytes : PREFIX_BYTES);
  writeU32(prefix, 0, headBytes);
  writeU32(prefix, 4, payloadBytes);
  if (payloadBytes > 16_384) return [prefix, head, payload];
  apply(set, prefix, [head, PREFIX_BYTES]);
  apply(set, prefix, [payload, PREFIX_BYTES + headBytes]);
  return [prefix];
}

/** Why a reader stopped: what the other side wrote is not a frame this side takes. */
export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

/** The bounds of what a reader takes. */
export interface FrameBounds {
  /** The largest header in bytes. */
  readonly headerBytes: number;
  /** The largest payload in bytes. */
  readonly payloadBytes: number;
}

/**
 * Cuts a byte stream into frames. `push` takes each chunk as it arrives and returns the frames it
 * completed; a frame over its bounds or a header that is not a JSON object throws FrameError, and
 * the reader is then of no further use (the stream is out of step). A frame that arrives in one
 * chunk is a view into it; one that spans chunks is copied once into a buffer of its own length.
 */
export class FrameReader {
  /** Bytes of an unfinished prefix. */
  private readonly prefix = new Bytes(PREFIX_BYTES);
  private prefixHave = 0;
  /** The frame being filled once its prefix is known: header and payload in one buffer. */
  private body: Uint8Array | undefined;
  private bodyHave = 0;
  private headerBytes = 0;

  constructor(private readonly bounds: FrameBounds) {}

  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    const length = byteLength(chunk);
    let at = 0;
    while (at < length) {
      if (this.body === undefined) {
        // The common case: a whole frame within this chunk, read in place.
        if (this.prefixHave === 0 && length - at >= PREFIX_BYTES) {
          const [headerBytes, payloadBytes] = this.sizes(chunk, at);
          const end = at + PREFIX_BYTES + headerBytes + payloadBytes;
          if (end <= length) {
            frames[frames.length] = this.frameOf(slice(chunk, at + PREFIX_BYTES, end), headerBytes);
            at = end;
            continue;
          }
        }
        const take = min(PREFIX_BYTES - this.prefixHave, length - at);
        apply(set, this.prefix, [slice(chunk, at, at + take), this.prefixHave]);
        this.prefixHave += take;
        at += take;
        if (this.prefixHave < PREFIX_BYTES) break;
        const [headerBytes, payloadBytes] = this.sizes(this.prefix, 0);
        this.prefixHave = 0;
        this.headerBytes = headerBytes;
        this.body = new Bytes(headerBytes + payloadBytes);
        this.bodyHave = 0;
      }
      const take = min(byteLength(this.body) - this.bodyHave, length - at);
      apply(set, this.body, [slice(chunk, at, at + take), this.bodyHave]);
      this.bodyHave += take;
      at += take;
      if (this.bodyHave === byteLength(this.body)) {
        frames[frames.length] = this.frameOf(this.body, this.headerBytes);
        this.body = undefined;
      }
    }
    return frames;
  }

  /** The header's and the payload's lengths at `at`, each checked against its bound. */
  private sizes(bytes: Uint8Array, at: number): [number, number] {
    const headerBytes = readU32(bytes, at);
    const payloadBytes = readU32(bytes, at + 4);
    if (headerBytes === 0 || headerBytes > this.bounds.headerBytes) throw new FrameError(`a frame header of ${headerBytes} bytes (at most ${this.bounds.headerBytes})`);
    if (payloadBytes > this.bounds.payloadBytes) throw new FrameError(`a frame payload of ${payloadBytes} bytes (at most ${this.bounds.payloadBytes})`);
    return [headerBytes, payloadBytes];
  }

  private frameOf(bytes: Uint8Array, headerBytes: number): Frame {
    let header: unknown;
    try {
      header = fromJson(text(slice(bytes, 0, headerBytes)));
    } catch {
      throw new FrameError('a frame header that is not JSON');
    }
    if (typeof header !== 'object' || header === null || isArray(header)) throw new FrameError('a frame header that is not a JSON object');
    return { header: header as Record<string, unknown>, payload: slice(bytes, headerBytes) };
  }
}
