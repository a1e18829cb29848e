/**
 * A body's chunks as they arrive, small ones joined in runs: Node's parser hands over each chunk as
 * a buffer of its own, and a chunked body of 1-byte chunks brought a million of them for 1 MiB.
 * Each then moved to a pool worker as a transfer of its own, and the list of a million transfers
 * held the main thread for minutes (Node checks a transfer list for duplicates pair by pair). Joined
 * in runs, a body of 10 MiB is at most a few thousand buffers whatever its chunks (with the rule on
 * pieces, kernel/host/pieces.ts), and a large chunk still moves as it came, without a copy.
 */

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
