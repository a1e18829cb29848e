/**
 * The `id` of a JSON-RPC message too large to keep, read as its bytes go by: the message is never
 * held, yet its sender still gets the error answered under the id it waits on (clients write `id`
 * anywhere among the members: the MCP SDK's client puts it last, after the arguments).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
/** Longer key or id text is not kept: no id a client sends is that long, and `id` is two letters. */
const MAX_KEPT = 200;

/** Follows the top-level members of one JSON object, fed in pieces, and keeps the text of `id`. */
export class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, before a member's name (after `{` or `,`). */
  private expectingKey = false;
  /** The text of the name or id being read, when one is. */
  private kept: number[] | undefined;
  private keptIsKey = false;
  private lastKey: string | undefined;
  /** Reading the value of `id` (its raw text, until the member ends). */
  private inId = false;
  private idText: string | undefined;

  /** Reads the next bytes of the message. */
  feed(bytes: Uint8Array): void {
    for (const byte of bytes) this.step(byte);
  }

  private keep(byte: number): void {
    if (this.kept !== undefined && this.kept.length < MAX_KEPT) this.kept.push(byte);
  }

  private step(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        if (this.keptIsKey) this.lastKey = Buffer.from(this.kept ?? []).toString('utf8');
        this.keptIsKey = false;
        if (!this.inId) this.kept = undefined;
      }
      if (this.inString || this.inId) this.keep(byte);
      return;
    }
    if (byte === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectingKey) {
        this.kept = [];
        this.keptIsKey = true;
        this.expectingKey = false;
      } else this.keep(byte);
      return;
    }
    if (OPEN.has(byte)) {
      this.depth += 1;
      if (this.depth === 1) this.expectingKey = true;
    } else if (CLOSE.has(byte)) this.depth -= 1;
    if (this.depth === 1 && byte === COLON && !this.inId && this.lastKey === 'id') {
      this.inId = true;
      this.kept = [];
      return;
    }
    const memberEnds = (this.depth === 1 && byte === COMMA) || this.depth === 0;
    if (this.inId && memberEnds) {
      this.inId = false;
      this.idText = Buffer.from(this.kept ?? []).toString('utf8');
      this.kept = undefined;
    } else if (this.inId) this.keep(byte);
    if (this.depth === 1 && byte === COMMA) this.expectingKey = true;
    if (memberEnds) this.lastKey = undefined;
  }

  /** The message's id when it is a string or a safe integer (a valid JSON-RPC request id), else null. */
  id(): string | number | null {
    if (this.idText === undefined) return null;
    try {
      const value: unknown = JSON.parse(this.idText);
      return typeof value === 'string' || Number.isSafeInteger(value) ? (value as string | number) : null;
    } catch {
      return null;
    }
  }
}
