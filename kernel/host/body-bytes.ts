/**
 * A request body's bytes as a door read them: one buffer, or the chunks they arrived in. A large
 * body goes to a pool worker as its chunks, each moved there without a copy, and is joined in the
 * worker: joining it here would allocate and fill a second copy of it on the main thread, and
 * every byte the main thread allocates brings its next full garbage collection nearer (a 1 MiB
 * request cost it one mark-compact of its whole heap every six requests). Node's HTTP parser gives
 * each body chunk a buffer of its own, so the chunks move as they are.
 */

/** One buffer, or the chunks of a body in order (never empty: a body of one chunk is that chunk). */
export type BodyBytes = Uint8Array | readonly Uint8Array[];

/** The body's size in bytes. */
export function byteLengthOf(body: BodyBytes): number {
  if (!Array.isArray(body)) return (body as Uint8Array).byteLength;
  let size = 0;
  for (const chunk of body as readonly Uint8Array[]) size += chunk.byteLength;
  return size;
}

/** `bytes` as a Buffer over the same memory (no copy), for Buffer's own methods: `toString`, Node's writes. */
export const bufferOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The body as one buffer: the buffer itself, or its chunks copied into a new one. */
export function joinedBytes(body: BodyBytes): Uint8Array {
  if (!Array.isArray(body)) return body as Uint8Array;
  const chunks = body as readonly Uint8Array[];
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** True when `bytes` is the whole of an ArrayBuffer of its own (not a slice of a pooled slab, not shared): that buffer may move to another thread. */
export function ownsWholeBuffer(bytes: Uint8Array): boolean {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
}

/**
 * The body as it is sent to a worker, and the buffers that move with it: a buffer or chunk that is
 * the whole of its buffer moves; a slice of a shared buffer (a pooled slab, a decoder's output) is
 * copied first, and so is a buffer already moving with an earlier chunk (a buffer may move once).
 */
export function movableBytes(body: BodyBytes): { readonly body: BodyBytes; readonly transfer: ArrayBuffer[] } {
  // A set, not the list: looking each chunk up in the list was quadratic in the chunks.
  const moving = new Set<ArrayBuffer>();
  const own = (bytes: Uint8Array): Uint8Array => {
    const moved = ownsWholeBuffer(bytes) && !moving.has(bytes.buffer as ArrayBuffer) ? bytes : Uint8Array.prototype.slice.call(bytes);
    moving.add(moved.buffer as ArrayBuffer);
    return moved;
  };
  const moved = Array.isArray(body) ? (body as readonly Uint8Array[]).map(own) : own(body as Uint8Array);
  return { body: moved, transfer: [...moving] };
}
