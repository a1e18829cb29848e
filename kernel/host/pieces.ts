/**
 * How finely bytes may arrive: a body from a client, a frame from a contained plugin's process.
 * Each piece that arrives (a socket or pipe read, a chunk of a chunked body) costs the main thread a
 * call into JavaScript whatever its size, so 64 KiB of 1-byte chunks cost about 10,000 calls (a
 * 10 MiB body, 20 s of the main thread) where the same bytes in one piece cost one. Bytes may come
 * in {@link FREE_PIECES} pieces whatever their size, and in one more for each {@link BYTES_PER_PIECE}
 * bytes they carry; past that the reader gives up on them.
 */
export const FREE_PIECES = 1024;
export const BYTES_PER_PIECE = 256;

/** True when `pieces` pieces that carried `bytes` bytes break the rule above. */
export const tooManyPieces = (pieces: number, bytes: number): boolean => pieces > FREE_PIECES + bytes / BYTES_PER_PIECE;
