/**
 * The access-log line, one per request, written straight to the logger's stream. It is the line
 * pino writes for `logger.info(entry, 'request')` with `base: null` (level, time, the fields,
 * msg), built by hand because pino's generic serializer was the largest single cost the kernel
 * added to a small request (~1.2 µs of ~30). test/access-log.test.ts holds it equal to pino's.
 */
import { pino, type Logger } from 'pino';

/** What the line says about a request; undefined fields are left out, as pino leaves them out. */
export interface AccessEntry {
  readonly requestId: string | undefined;
  readonly operation: string | undefined;
  readonly method: string;
  /** The path (without the query) of a request that names no operation: GET pages, probes, unknown paths. */
  readonly path?: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  readonly ip: string;
  readonly key: string | undefined;
}

const INFO = 30;

/** Characters JSON never escapes: request ids, operation ids, methods, addresses and most paths are made of them. */
const plain = /^[A-Za-z0-9._:/-]*$/;

// JSON.stringify of each value was half the line's cost; a value of plain characters needs only its quotes.
const field = (name: string, value: string | undefined): string =>
  value === undefined ? '' : `,"${name}":${plain.test(value) ? `"${value}"` : JSON.stringify(value)}`;

/** The line, newline included, for an entry logged at `time` (epoch milliseconds). */
export function accessLine(entry: AccessEntry, time: number): string {
  return (
    `{"level":${INFO},"time":${time}${field('requestId', entry.requestId)}${field('operation', entry.operation)}` +
    `${field('method', entry.method)}${field('path', entry.path)},"status":${entry.status},"durationMs":${entry.durationMs}` +
    `${field('ip', entry.ip)}${field('key', entry.key)},"msg":"request"}\n`
  );
}

/** A function that writes an entry's line when the logger's level shows info lines. */
export function accessLogger(logger: Logger): (entry: AccessEntry) => void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  return (entry) => {
    if (logger.isLevelEnabled('info')) stream!.write(accessLine(entry, Date.now()));
  };
}
