/**
 * The HTTP-level test harness, in the spirit of fastify's `inject()`: the real Toolshed kernel,
 * listening on 127.0.0.1 at a free port with just the plugins given, and a client for it. Requests
 * take every step a production request takes (routing, rate limit, body parsing, validation,
 * handler, response check, error bodies).
 *
 * The kernel depends on this SDK, so the SDK cannot import it statically: the kernel is found at
 * run time as the package `toolshed` (its `toolshed/testing` export), which a plugin has as a dev
 * dependency. It is looked up from the SDK's own folder first, then from the working directory.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

interface KernelModule {
  startKernel(options: KernelFixtureOptions): Promise<KernelFixture>;
  /** The host's worker threads, for `invoke()`'s `context.runInWorker`. */
  readonly runInWorker?: RunInWorker;
}

const fixtureModule = 'toolshed/testing';

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** The host's fixture module when it is installed, else undefined. */
export async function importHost(): Promise<KernelModule | undefined> {
  try {
    return await importKernel();
  } catch {
    return undefined;
  }
}

/** The kernel's fixture module, from beside this SDK or else from the working directory's package. */
async function importKernel(): Promise<KernelModule> {
  try {
    return (await import(fixtureModule)) as KernelModule;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  let file: string;
  try {
    file = createRequire(path.join(process.cwd(), 'package.json')).resolve(fixtureModule);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new Error(
      'startTestKernel needs Toolshed itself: add it as a dev dependency of the plugin (npm install --save-dev <path of a built Toolshed checkout>)',
      { cause: error },
    );
  }
  return (await import(pathToFileURL(file).href)) as KernelModule;
}

async function answerOf(response: Response): Promise<TestAnswer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/**
 * Starts the real kernel with just `options.plugins` and returns a client for it; `stop()` it when
 * the test ends.
 *
 * @example
 * const kernel = await startTestKernel({ plugins: [new URL('./index.js', import.meta.url)] });
 * after(() => kernel.stop());
 * const answer = await kernel.post('word-tools/reverse', { text: 'stressed' });
 * assert.deepEqual([answer.status, answer.body], [200, { reversed: 'desserts' }]);
 */
export async function startTestKernel(options: KernelFixtureOptions): Promise<TestKernel> {
  const fixture = await (await importKernel()).startKernel(options);
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
