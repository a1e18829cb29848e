/**
 * Builds a long string from UTF-16 code units. Joining millions of small strings, or a global
 * regular-expression replace with millions of matches, costs seconds on a 10 MB text; copying
 * code units into a growing array does not.
 */
export class TextBuilder {
  private buffer: Uint16Array;
  private size = 0;

  constructor(capacity: number) {
    this.buffer = new Uint16Array(Math.max(16, capacity));
  }

  private reserve(extra: number): void {
    if (this.size + extra <= this.buffer.length) return;
    const next = new Uint16Array(Math.max(this.buffer.length * 2, this.size + extra));
    next.set(this.buffer.subarray(0, this.size));
    this.buffer = next;
  }

  /** Appends one code unit. */
  unit(code: number): void {
    this.reserve(1);
    this.buffer[this.size++] = code;
  }

  /** Appends text.slice(from, to). */
  append(text: string, from = 0, to: number = text.length): void {
    this.reserve(to - from);
    for (let i = from; i < to; i++) this.buffer[this.size++] = text.charCodeAt(i);
  }

  /** The text built so far. */
  toString(): string {
    const chunks: string[] = [];
    for (let i = 0; i < this.size; i += 8192) chunks.push(String.fromCharCode(...this.buffer.subarray(i, Math.min(this.size, i + 8192))));
    return chunks.join('');
  }
}
