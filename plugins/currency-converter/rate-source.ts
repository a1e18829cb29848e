/**
 * Loading the rate document: one GET of the configured URL (no redirect followed, a time budget
 * and a size cap), or one read of the configured local file. Both give the parsed day of rates or
 * throw a FeedError whose message names the failure without quoting the URL, path or body.
 */
import { readCapped } from '@toolshed/plugin-sdk';
import { open } from 'node:fs/promises';
import { FeedFormatError, parseEcbXml, type RateSet } from './ecb-xml.js';

/** The daily file is about 1.6 KB and the 90-day history about 60 KB; anything past this is not a rate file. */
export const MAX_FEED_BYTES = 1024 * 1024;

/** Why the rates could not be loaded. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function parse(bytes: Uint8Array): RateSet {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new FeedError('The rate feed is not UTF-8 text');
  }
  try {
    return parseEcbXml(text);
  } catch (error) {
    if (error instanceof FeedFormatError) throw new FeedError(`The rate feed is not a valid ECB rate document: ${error.message}`);
    throw error;
  }
}

/** GETs `url` within `timeoutMs` (or until `signal` aborts) and parses it. */
export async function fetchRates(url: string, timeoutMs: number, signal: AbortSignal): Promise<RateSet> {
  const controller = new AbortController();
  let timedOut = false;
  const stop = (): void => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  // unref: a pending fetch must not keep the process alive on its own.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs).unref();
  const interrupted = (): string =>
    timedOut ? `The rate feed did not answer within ${timeoutMs} ms` : 'The rate fetch was stopped because the plugin is closing';
  try {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', headers: { Accept: 'application/xml, text/xml' }, signal: controller.signal });
    } catch {
      throw new FeedError(controller.signal.aborted ? interrupted() : 'The rate feed could not be reached');
    }
    if (response.status < 200 || response.status > 299) {
      response.body?.cancel().catch(() => undefined);
      throw new FeedError(`The rate feed answered with HTTP status ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > MAX_FEED_BYTES) {
      response.body?.cancel().catch(() => undefined);
      throw new FeedError(`The rate feed is larger than ${MAX_FEED_BYTES} bytes`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(response.body, MAX_FEED_BYTES, () => new FeedError(`The rate feed is larger than ${MAX_FEED_BYTES} bytes`));
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw new FeedError(controller.signal.aborted ? interrupted() : 'The connection to the rate feed broke');
    }
    return parse(bytes);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** Reads and parses the local rate file `path`. */
export async function readRatesFile(path: string): Promise<RateSet> {
  let bytes: Uint8Array;
  try {
    const handle = await open(path, 'r');
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new FeedError('The rates file is not a regular file');
      if (stats.size > MAX_FEED_BYTES) throw new FeedError(`The rates file is larger than ${MAX_FEED_BYTES} bytes`);
      // One byte more than the cap: a file that grew since stat() is still caught.
      const buffer = Buffer.alloc(MAX_FEED_BYTES + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > MAX_FEED_BYTES) throw new FeedError(`The rates file is larger than ${MAX_FEED_BYTES} bytes`);
      }
      bytes = buffer.subarray(0, length);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(`The rates file could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parse(bytes);
}
