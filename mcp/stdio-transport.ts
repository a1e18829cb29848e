/**
 * MCP's stdio transport: one JSON-RPC message per line in, one per line out. A line over the size
 * cap is never held: its bytes go by, only its id is kept (mcp/id-scanner.ts), and its sender gets
 * a JSON-RPC error under that id while the next line is served as usual (the SDK's own transport
 * ended the server on such a line). Blank lines are skipped; every other line goes to the server
 * as its bytes, which reads it as the HTTP door's body is read (mcp/message.ts).
 */
import type { Readable, Writable } from 'node:stream';
import { IdScanner } from './id-scanner.js';
import { INVALID_REQUEST, type RequestId } from './message.js';
import { errorResponse } from './results.js';

const NEWLINE = 0x0a;

/** The lines of `stdin` (each at most `maxMessageBytes`, newline excluded), and answers written to `stdout`. */
export class LineTransport {
  /** The pieces of the line being read, while it is within the cap. */
  private pieces: Buffer[] = [];
  private held = 0;
  /** Set while an oversized line goes by. */
  private oversized: IdScanner | undefined;
  private closed = false;

  /** `onLine` gets each line's bytes (a trailing CR left out). */
  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes: number,
    private readonly onLine: (line: Buffer) => void,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start <= chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.take(piece);
      if (end === -1) return;
      this.endLine();
      start = end + 1;
    }
  };

  /** Adds `piece` to the current line, or lets it go by once the line is over the cap. */
  private take(piece: Buffer): void {
    if (this.oversized === undefined && this.held + piece.length > this.maxMessageBytes) {
      this.oversized = new IdScanner();
      for (const held of this.pieces) this.oversized.feed(held);
      this.pieces = [];
      this.held = 0;
    }
    if (this.oversized !== undefined) this.oversized.feed(piece);
    else if (piece.length > 0) {
      this.pieces.push(piece);
      this.held += piece.length;
    }
  }

  private endLine(): void {
    if (this.oversized !== undefined) {
      const id = this.oversized.id();
      this.oversized = undefined;
      this.refuse(id, `Invalid request: the message is over ${this.maxMessageBytes} bytes, the most one line may hold`);
      return;
    }
    const line = Buffer.concat(this.pieces, this.held);
    this.pieces = [];
    this.held = 0;
    const message = line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
    if (message.some((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0d)) this.onLine(message);
  }

  private refuse(id: RequestId | null, message: string): void {
    void this.write(errorResponse(id, INVALID_REQUEST, message));
  }

  /**
   * Writes one message and its newline. The two writes follow each other in one turn of the event
   * loop, so answers finishing in any order never interleave; resolves once stdout takes more.
   */
  write(message: string | Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.stdout.write(message);
      if (this.stdout.write('\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  start(): void {
    this.stdin.on('data', this.onData);
  }

  /** Stops reading; answers still to come are dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
  }
}
