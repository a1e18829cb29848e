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
  /** Starts a fresh redis-server on the same port (data lost) and waits until it answers PING. */
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

/** Whether a PING on the port is answered with PONG within a second. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function spawnRedis(port: number): ChildProcess {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  // A missing binary is reported by waitUntilUp; without a listener the error would crash the run.
  child.on('error', () => undefined);
  return child;
}

async function waitUntilUp(child: ChildProcess, port: number): Promise<void> {
  // Bounded by attempts, not time: 300 × (≤ 1 s PING + 20 ms).
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      throw new Error('redis-server did not start (is the Debian package redis-server installed?)');
    }
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} never answered PING`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts redis-server on a free port of 127.0.0.1 and waits until it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child = spawnRedis(port);
  await waitUntilUp(child, port);
  const kill = async (): Promise<void> => {
    const gone = exited(child);
    // A paused process handles SIGKILL too.
    child.kill('SIGKILL');
    await gone;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    async restart() {
      await kill();
      child = spawnRedis(port);
      await waitUntilUp(child, port);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop: kill,
  };
}
