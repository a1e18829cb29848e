/**
 * An upstream's answer read under a cap: a plugin that fetches (a DNS-over-HTTPS resolver, a rate
 * feed) must not hold whatever a misbehaving upstream sends. The cap is checked as each chunk
 * arrives, so a huge answer costs one chunk past the cap, not the whole answer.
 */

/**
 * The bytes of `body` (a `fetch` response's body; null reads as empty), or the error `tooLarge`
 * makes as soon as they pass `limit` bytes; the rest of the body is then cancelled.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number, tooLarge: () => Error): Promise<Buffer> {
  if (body === null) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Cancelling only releases the connection; its outcome changes nothing for the caller.
      reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
