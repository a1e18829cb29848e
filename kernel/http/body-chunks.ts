/**
 * A body's chunks as they arrive, small ones joined in runs: Node's parser hands over each chunk as
 * a buffer of its own, and a chunked body of 1-byte chunks brought a million of them for 1 MiB.
 * Each then moved to a pool worker as a transfer of its own, and the list of a million transfers
 * held the main thread for minutes (Node checks a transfer list for duplicates pair by pair). Joined
 * in runs, a body of 10 MiB is at most a few thousand buffers whatever its chunks (with the rule on
 * pieces below), and a large chunk still moves as it came, without a copy.
 */

/**
 * A body may arrive in this many pieces whatever their size (a socket read, or a chunk of a chunked
 * body), and in one more for each {@link BYTES_PER_PIECE} bytes it carries; past that it is cut, and
 * what a lingering close reads after an answer is held to the same rule. Node's parser calls into
 * JavaScript once per chunk, so 64 KiB of 1-byte chunks cost the main thread about 10,000 calls (a
 * 10 MiB body, 20 s of it) where the same bytes in one chunk cost one.
 */
export const FREE_PIECES = 1024;
export const BYTES_PER_PIECE = 256;

/** True when `pieces` pieces that carried `bytes` bytes break the rule above. */
export const tooManyPieces = (pieces: number, bytes: number): boolean => pieces > FREE_PIECES + bytes / BYTES_PER_PIECE;

/** Chunks smaller than this wait to be joined with their neighbours; larger ones are kept as they came. */
export const SMALL_CHUNK_BYTES = 16 * 1024;
/** At most this many small chunks wait before they are joined. */
export const SMALL_RUN = 64;

export class BodyChunks {
  readonly #chunks: Buffer[] = [];
  /** Small chunks waiting to be joined (made on the first: most bodies are one chunk, joined with nothing). */
  #small: Buffer[] | undefined;
  #smallBytes = 0;

  add(chunk: Buffer): void {
    if (chunk.length >= SMALL_CHUNK_BYTES) {
      this.#join();
      this.#chunks.push(chunk);
      return;
    }
    (this.#small ??= []).push(chunk);
    this.#smallBytes += chunk.length;
    if (this.#smallBytes >= SMALL_CHUNK_BYTES || this.#small.length === SMALL_RUN) this.#join();
  }

  /** The chunks in order. A body of one chunk is that chunk, uncopied. */
  list(): Buffer[] {
    this.#join();
    return this.#chunks;
  }

  #join(): void {
    const small = this.#small;
    if (small === undefined) return;
    this.#chunks.push(small.length === 1 ? small[0]! : Buffer.concat(small, this.#smallBytes));
    this.#small = undefined;
    this.#smallBytes = 0;
  }
}
