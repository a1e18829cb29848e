/**
 * The cache of reference rates, one per rate source (URL or file), with this policy:
 *
 * - Lazy: nothing is fetched at start-up, so the service starts with the feed down. The first
 *   request waits for the first fetch (at most `timeoutMs`); requests arriving meanwhile join it
 *   (single flight: one fetch at a time per source).
 * - Stale while revalidate: once rates are older than `refreshMinutes`, the next request starts a
 *   background fetch and is answered at once from the set it has; a failed fetch keeps that set.
 * - After a failed fetch the source is not asked again for FAILURE_RETRY_MS; with no rates at all
 *   requests meanwhile are refused at once with 503 instead of each waiting on a dead feed.
 * - Ages are measured with the request's clock (`context.now()`), so tests drive them exactly. A
 *   clock that went backwards counts as "due": the recorded time can no longer be trusted.
 * - No timer of its own: only the fetch budget, unref'd and cleared when the fetch ends.
 *   `closeRateStores()` aborts fetches in flight and forgets every set.
 */
import { ToolshedError } from '@toolshed/plugin-sdk';
import type { CurrencyConfig } from './config.js';
import type { RateSet } from './ecb-xml.js';
import { FeedError, fetchRates, readRatesFile } from './rate-source.js';

/** How long a failed source rests before it is asked again. */
export const FAILURE_RETRY_MS = 60_000;

/**
 * 503 `upstream_unavailable`: no rates have been loaded yet and the source fails. The kernel sends
 * `headers` along: Retry-After says when the source will be asked again.
 */
export class RatesUnavailableError extends ToolshedError {
  readonly headers: Readonly<Record<string, string>>;
  constructor(reason: string, retryAfterSeconds: number) {
    super(503, 'upstream_unavailable', `No exchange rates are available yet: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`);
    this.name = 'RatesUnavailableError';
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

class RateStore {
  rates: RateSet | undefined;
  private loadedAt = 0;
  private failedAt: number | undefined;
  private failure = 'the rate feed has not been asked yet';
  private inFlight: Promise<void> | undefined;
  private readonly controller = new AbortController();

  constructor(private readonly load: (signal: AbortSignal) => Promise<RateSet>) {}

  /** Whether a fetch should start at `now` (ms). */
  private due(now: number, refreshMs: number): boolean {
    if (this.inFlight !== undefined) return false;
    if (this.failedAt !== undefined && now >= this.failedAt && now - this.failedAt < FAILURE_RETRY_MS) return false;
    if (this.rates === undefined) return true;
    return now < this.loadedAt || now - this.loadedAt >= refreshMs;
  }

  private start(now: number): Promise<void> {
    const flight = this.load(this.controller.signal).then(
      (rates) => {
        this.rates = rates;
        this.loadedAt = now;
        this.failedAt = undefined;
      },
      (error: unknown) => {
        this.failedAt = now;
        this.failure = error instanceof FeedError ? error.message : 'loading the rates failed';
      },
    );
    this.inFlight = flight.finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The current set, fetching first only when there is none; see the policy above. */
  async current(now: number, refreshMs: number, signal: AbortSignal): Promise<RateSet> {
    if (this.due(now, refreshMs)) void this.start(now);
    if (this.rates !== undefined) return this.rates;
    if (this.inFlight !== undefined) await untilSettledOrAborted(this.inFlight, signal);
    if (this.rates !== undefined) return this.rates;
    const wait = this.failedAt === undefined ? 0 : this.failedAt + FAILURE_RETRY_MS - now;
    const retryAfterSeconds = Math.min(FAILURE_RETRY_MS / 1000, Math.max(1, Math.ceil(wait / 1000)));
    throw new RatesUnavailableError(signal.aborted ? 'the request was cancelled while they loaded' : this.failure, retryAfterSeconds);
  }

  /** Resolves when no fetch is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
  }

  close(): void {
    this.controller.abort();
  }
}

/** Waits for `promise` (which never rejects) or for `signal`, whichever comes first. */
function untilSettledOrAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}

const stores = new Map<string, RateStore>();

function storeFor(config: CurrencyConfig): RateStore {
  const key = config.ratesFile !== '' ? `file:${config.ratesFile}` : `url:${config.timeoutMs}:${config.ratesUrl}`;
  let store = stores.get(key);
  if (store === undefined) {
    const { ratesFile, ratesUrl, timeoutMs } = config;
    store = new RateStore(ratesFile !== '' ? () => readRatesFile(ratesFile) : (signal) => fetchRates(ratesUrl, timeoutMs, signal));
    stores.set(key, store);
  }
  return store;
}

/** The rates for `config` as of `now`; throws 503 RatesUnavailableError when there are none. */
export function currentRates(config: CurrencyConfig, now: Date, signal: AbortSignal): Promise<RateSet> {
  return storeFor(config).current(now.getTime(), config.refreshMinutes * 60_000, signal);
}

/** Resolves once no fetch is in flight for any source (tests wait on background refreshes with it). */
export async function rateStoresIdle(): Promise<void> {
  await Promise.all([...stores.values()].map((store) => store.idle()));
}

/** Aborts fetches in flight and forgets every rate set (the plugin's close()). */
export function closeRateStores(): void {
  for (const store of stores.values()) store.close();
  stores.clear();
}
