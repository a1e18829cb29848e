/**
 * The HTTP-level test harness, in the spirit of fastify's `inject()`: the real Toolshed kernel,
 * listening on 127.0.0.1 at a free port with just the plugins given, and a client for it. Requests
 * take every step a production request takes (routing, rate limit, body parsing, validation,
 * handler, response check, error bodies).
 *
 * The kernel depends on this SDK, so the SDK never imports it, not even at run time by name: the
 * test imports the host's fixture module itself (`import * as toolshed from 'toolshed/testing'`)
 * and hands it in, typed by {@link TestHost}.
 */
import type { RunInWorker } from './worker-errors.js';

/** What the kernel's fixture module (`toolshed/testing`) takes. */
export interface KernelFixtureOptions {
  /**
   * The plugins to serve, each loaded with every rule the kernel applies: the file URL of a module
   * whose default export is the manifest (`new URL('./index.js', import.meta.url)`), a plugin
   * folder (whose name must then equal the group), or an installed package's name.
   */
  readonly plugins: readonly (string | URL)[];
  /** Configuration merged over the kernel's defaults (a plugin's section, `workers`, `auth`...). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Serve the built-in plugins too (default false: just the plugins given). */
  readonly builtins?: boolean;
  /** The log level (default `info`); the lines are kept, see {@link KernelFixture.logs}. */
  readonly logLevel?: string;
}

/** The running kernel as its fixture module returns it. */
export interface KernelFixture {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every log line written so far (JSON text). */
  logs(): string[];
  /** Stops it as SIGTERM would, closing the plugins. */
  stop(): Promise<void>;
}

/**
 * What a Toolshed host offers its plugins' tests: the module `toolshed/testing`, which a test
 * imports itself and hands to {@link startTestKernel} (and its `runInWorker` to `invoke()`).
 */
export interface TestHost {
  /** Starts the real service with just `options.plugins`. */
  startKernel(options: KernelFixtureOptions): Promise<KernelFixture>;
  /** The host's worker threads, for `invoke()`'s `runInWorker` option. */
  readonly runInWorker: RunInWorker;
}

/** One answer of the kernel. */
export interface TestAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON (every answer of an operation is JSON). */
  readonly body: unknown;
}

/** The kernel with a client: {@link startTestKernel}'s result. */
export interface TestKernel extends KernelFixture {
  /**
   * POSTs `body` as JSON to `/v1/<operation>` (`'word-tools/reverse'`) and resolves with the answer,
   * whatever its status.
   */
  post(operation: string, body?: unknown, headers?: Readonly<Record<string, string>>): Promise<TestAnswer>;
  /** Any request: `path` is the URL path (`/healthz`), `body` a string or a value sent as JSON. */
  request(method: string, path: string, init?: { body?: unknown; headers?: Readonly<Record<string, string>> }): Promise<TestAnswer>;
}

async function answerOf(response: Response): Promise<TestAnswer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/**
 * Starts the real kernel of `host` (the module `toolshed/testing`, imported by the test) with just
 * `options.plugins` and returns a client for it; `stop()` it when the test ends.
 *
 * @example
 * import * as toolshed from 'toolshed/testing';
 * const kernel = await startTestKernel(toolshed, { plugins: [new URL('./index.js', import.meta.url)] });
 * after(() => kernel.stop());
 * const answer = await kernel.post('word-tools/reverse', { text: 'stressed' });
 * assert.deepEqual([answer.status, answer.body], [200, { reversed: 'desserts' }]);
 */
export async function startTestKernel(host: TestHost, options: KernelFixtureOptions): Promise<TestKernel> {
  const fixture = await host.startKernel(options);
  const request: TestKernel['request'] = async (method, urlPath, init = {}) => {
    const hasBody = init.body !== undefined;
    const body = typeof init.body === 'string' || !hasBody ? (init.body as string | undefined) : JSON.stringify(init.body);
    // The API asks every POST for its JSON type, a body or none (415 without it), as clients send it.
    const headers = { ...(hasBody || method === 'POST' ? { 'content-type': 'application/json' } : {}), ...init.headers };
    return answerOf(await fetch(`${fixture.url}${urlPath}`, { method, body, headers }));
  };
  return {
    url: fixture.url,
    logs: () => fixture.logs(),
    stop: () => fixture.stop(),
    request,
    post: (operation, body = {}, headers) => request('POST', `/v1/${operation}`, { body, headers }),
  };
}
