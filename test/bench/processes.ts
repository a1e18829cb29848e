/**
 * The bench's server processes: started as children (so each can be pinned and measured on its
 * own), pinned to one core with taskset while this process, the load generator, takes another.
 * Every server, Toolshed and each peer, starts with `npm start`'s node flags and environment
 * (launch.ts), and with nothing else of its own but the bench's variables.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Listening, Usage } from './child-ipc.js';
import { launchEnvironment, NODE_FLAGS } from './launch.js';
import { parseCpuList } from './report.js';

export const SERVERS = {
  raw: { name: 'raw node:http', script: './raw-server.js' },
  fastify: { name: 'Fastify', script: './fastify-server.js' },
  koa: { name: 'bare Koa', script: './koa-server.js' },
  toolshed: { name: 'Toolshed', script: './toolshed-server.js' },
  // Scenario (f): Toolshed with the fixture folder plugins, contained (the default) or trusted.
  contained: { name: 'Toolshed, plugin in its process', script: './toolshed-server.js' },
  trusted: { name: 'Toolshed, plugin trusted', script: './toolshed-server.js' },
} as const;
export type ServerKind = keyof typeof SERVERS;

/** Where servers and load run; `serverCpu` undefined means not pinned (and `note` says why). */
export interface Placement {
  readonly serverCpu?: number;
  readonly loadCpu?: number;
  readonly note: string;
}

/**
 * Pins this process (every thread: `taskset -a`) to the second allowed CPU and reserves the first
 * for the servers, when taskset exists and at least two CPUs are allowed. Otherwise nothing is
 * pinned: servers and load generator then share the cores, which lowers req/s for every server
 * alike (the ratios and CPU per request stay comparable).
 */
export function placeProcesses(wanted: boolean): Placement {
  if (!wanted) return { note: 'not pinned (--no-pin)' };
  const current = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
  if (current.error !== undefined || current.status !== 0) return { note: 'not pinned: taskset (util-linux) not found' };
  const list = /list:\s*([\d,-]+)/.exec(current.stdout)?.[1];
  const cpus = list === undefined ? [] : parseCpuList(list);
  const [serverCpu, loadCpu] = cpus;
  if (serverCpu === undefined || loadCpu === undefined) return { note: `not pinned: only ${cpus.length} CPU allowed` };
  const pinned = spawnSync('taskset', ['-a', '-cp', String(loadCpu), String(process.pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) return { note: `not pinned: taskset failed (${pinned.stderr.trim()})` };
  return { serverCpu, loadCpu, note: `servers on CPU ${serverCpu}, load generator on CPU ${loadCpu}` };
}

/** A running server child. */
export class ServerProcess {
  readonly name: string;
  readonly base: string;
  readonly #exited: Promise<number | null>;

  constructor(
    readonly kind: ServerKind,
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.name = SERVERS[kind].name;
    this.base = `http://127.0.0.1:${port}`;
    this.#exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  }

  /** The child's CPU time and RSS so far, as it reports them over IPC. */
  async usage(): Promise<Usage> {
    const answer = new Promise<Usage>((resolve) => this.child.once('message', (message) => resolve(message as Usage)));
    this.child.send('usage');
    const gone = this.#exited.then((code) => Promise.reject(new Error(`${this.name} exited (code ${code}) while being measured`)));
    return Promise.race([answer, gone]);
  }

  /** Resolves once the server's background warm-up is done (at once for servers without one). */
  async warmedUp(): Promise<void> {
    const answer = new Promise<void>((resolve) => this.child.once('message', () => resolve()));
    this.child.send('warm');
    const gone = this.#exited.then((code) => Promise.reject(new Error(`${this.name} exited (code ${code}) before it warmed up`)));
    return Promise.race([answer, gone]);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.#exited;
  }
}

/** Starts one server, pinned when `placement` says so; resolves once it listens. */
export async function startServer(kind: ServerKind, placement: Placement, env: Record<string, string> = {}): Promise<ServerProcess> {
  const script = fileURLToPath(new URL(SERVERS[kind].script, import.meta.url));
  // Under taskset, `taskset -c N node <flags> script`: the server's threads are all created on that CPU.
  const launcher =
    placement.serverCpu === undefined
      ? { execArgv: [...NODE_FLAGS] }
      : { execPath: 'taskset', execArgv: ['-c', String(placement.serverCpu), process.execPath, ...NODE_FLAGS] };
  const child = fork(script, [], {
    ...launcher,
    env: launchEnvironment(process.env, env),
    // Toolshed's access log goes to stdout as in production; here to /dev/null, so its cost is counted but not its disk.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as Listening).port));
    child.once('exit', (code) => reject(new Error(`${SERVERS[kind].name} (${script}) exited with code ${code} before listening`)));
  });
  return new ServerProcess(kind, child, port);
}
