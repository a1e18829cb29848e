/**
 * A real redis-server for tests: on 127.0.0.1, on a free port, without persistence. It can be
 * killed and started again on the same port, to test what the service does while Redis is down.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Kills the process at once (SIGKILL, like a crash) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts a fresh redis-server on the same port (data lost) and waits until it answers. */
  restart(): Promise<void>;
  /** Suspends (SIGSTOP) or resumes (SIGCONT) the process: a Redis that accepts but never answers. */
  pause(): void;
  resume(): void;
  /** Stops it for good; safe to call more than once. */
  stop(): Promise<void>;
}

/** A port the kernel has just handed out, free unless someone grabs it in between. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * The process id of the Redis answering on the port (its `INFO server`), or undefined when none
 * answers within a second. A redis-server that could not bind its port exits, but another one may
 * hold that port (another test file's, another run's on the same machine): the id tells them apart.
 */
function answeringPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (pid: number | undefined): void => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      const pid = /\r\nprocess_id:(\d+)\r\n/.exec(reply);
      if (pid) done(Number(pid[1]));
      else if (reply.startsWith('-')) done(undefined);
    });
  });
}

/** A redis-server started on a port, and whether it could not be started at all (no binary). */
interface Spawned {
  readonly child: ChildProcess;
  missing: boolean;
}

function spawnRedis(port: number): Spawned {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const spawned: Spawned = { child, missing: false };
  // A missing binary is reported by waitUntilUp; without a listener the error would crash the run.
  child.on('error', () => (spawned.missing = true));
  return spawned;
}

/**
 * True once this very process answers on the port; false when it exited (its port was taken) or
 * another Redis answers there. Bounded by attempts, not time: 300 × (≤ 1 s INFO + 20 ms).
 */
async function waitUntilUp(spawned: Spawned, port: number): Promise<boolean> {
  const { child } = spawned;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (spawned.missing || child.pid === undefined) throw new Error('redis-server did not start (is the Debian package redis-server installed?)');
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const pid = await answeringPid(port);
    if (pid === child.pid) return true;
    if (pid !== undefined) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} never answered`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGKILL (a paused process handles it too), and waits until it has exited. */
async function killed(child: ChildProcess): Promise<void> {
  const gone = exited(child);
  child.kill('SIGKILL');
  await gone;
}

/** A redis-server of its own on the port, or undefined (killed again) when it could not have the port. */
async function startOn(port: number): Promise<ChildProcess | undefined> {
  const spawned = spawnRedis(port);
  if (await waitUntilUp(spawned, port)) return spawned.child;
  await killed(spawned.child);
  return undefined;
}

/**
 * Starts redis-server on a free port of 127.0.0.1 and waits until it answers. A port taken between
 * the kernel handing it out and redis-server binding it is given up for another.
 */
export async function startRedisServer(): Promise<RedisServer> {
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; attempt < 5 && child === undefined; attempt++) {
    port = await freePort();
    child = await startOn(port);
  }
  if (child === undefined) throw new Error('redis-server found every free port it was given taken');
  let current = child;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => killed(current),
    async restart() {
      await killed(current);
      const started = await startOn(port);
      if (started === undefined) throw new Error(`redis-server could not start again on port ${port}: another process took it`);
      current = started;
    },
    pause: () => void current.kill('SIGSTOP'),
    resume: () => void current.kill('SIGCONT'),
    stop: () => killed(current),
  };
}
