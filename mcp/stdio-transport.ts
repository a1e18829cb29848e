/**
 * MCP's stdio transport (one JSON-RPC message per line), answering what the SDK's own transport
 * cannot: a line over the size cap ends the SDK's transport, and with it the server (exit 0,
 * nothing logged, every later call "Connection closed"); a line that is not a JSON-RPC message is
 * dropped unanswered there, so its sender waits forever. Here each gets a JSON-RPC error, under the
 * message's id when one can be read, and the next line is served as usual. An oversized line is
 * never held: its bytes go by, only its id is kept. The rules are those of the HTTP door's body.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { parseJsonObject } from '../kernel/host/index.js';
import { IdScanner } from './id-scanner.js';

/** JSON-RPC's codes for a message that is not JSON, and for one that is no valid request. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

const NEWLINE = 0x0a;

/** The id of a parsed message that is not a valid one, when it has a usable id. */
function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

/** The transport over `stdin`/`stdout`; lines over `maxMessageBytes` (newline excluded) are refused. */
export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The pieces of the line being read, while it is within the cap. */
  private pieces: Buffer[] = [];
  private held = 0;
  /** Set while an oversized line goes by. */
  private oversized: IdScanner | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes: number,
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

  private readonly onError = (error: Error): void => this.onerror?.(error);

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
      this.refuse(id, INVALID_REQUEST, `Invalid request: the message is over ${this.maxMessageBytes} bytes, the most one line may hold`);
      return;
    }
    const line = Buffer.concat(this.pieces, this.held);
    this.pieces = [];
    this.held = 0;
    this.read(line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);
  }

  /** Hands one line's message on, or answers why it is none. Blank lines are skipped. */
  private read(line: Buffer): void {
    const first = line.findIndex((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0d);
    if (first === -1) return;
    // Batches left JSON-RPC over MCP with protocol 2025-06-18; one message per line.
    if (line[first] === 0x5b) return this.refuse(null, INVALID_REQUEST, 'Batches are not supported: send one JSON-RPC message per line');
    let value: unknown;
    try {
      // The API's own JSON rules: UTF-8, at most 64 levels deep, a position for a syntax error.
      value = parseJsonObject(line);
    } catch (error) {
      if (!isToolshedError(error)) throw error;
      return this.refuse(null, PARSE_ERROR, `Parse error: ${error.message}`);
    }
    const checked = JSONRPCMessageSchema.safeParse(value);
    if (!checked.success) return this.refuse(idOf(value), INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 request, notification or response');
    this.onmessage?.(checked.data);
  }

  private refuse(id: string | number | null, code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error: Error) => this.onerror?.(error));
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.onclose?.();
    return Promise.resolve();
  }
}
