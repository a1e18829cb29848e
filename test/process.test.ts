// The real entry point as an operator runs it: `node dist/service/main.js` in a child process.
// Request data must never reach its output, and SIGTERM lets in-flight work finish, then exits 0.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { send } from './support/http.js';
import { externalPlugins } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const main = fileURLToPath(new URL('../service/main.js', import.meta.url));
const children: ChildProcess[] = [];
// A failed test must not leave a server running: its open pipes would keep the test process alive.
after(() => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL')));

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startProcess(extraYaml: string, env: Record<string, string> = {}): Promise<Started> {
  const dir = tempFolder('toolshed-process-');
  const config = path.join(dir, 'config.yaml');
  // The probe is trusted: its stray rejection and slow answers are main-thread behaviour under test.
  await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n  trusted: [kernel-probe]\n${extraYaml}`);
  const child = spawn(process.execPath, [main], { env: { ...process.env, ...env, TOOLSHED_CONFIG: config, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Waits on events, not a clock: the listening line, or the process ending without one (a busy
  // machine may take many seconds to start it; the test runner's own timeout bounds a hang).
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match?.[1]) {
        child.stdout?.off('data', look);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => reject(new Error(`exited ${code} before listening: ${output}`)));
  });
  return { child, url, output: () => output, exited };
}

describe('the service process', () => {
  it('never writes request data, query strings or keys to its output', async () => {
    const service = await startProcess('probe:\n  delayMs: 1\n');
    const marker = 'MARKER-c9d2e1';
    const requests = [
      send(service.url, '/v1/base64/encode', { body: { text: marker } }),
      send(service.url, '/v1/base64/decode', { body: { base64: `${marker}!!` } }),
      send(service.url, '/v1/base64/encode', { body: { text: 1, [marker]: marker } }),
      send(service.url, '/v1/base64/encode', { body: `{"text": "${marker}"`, headers: { 'Content-Type': 'application/json' } }),
      send(service.url, `/v1/base64/encode?q=${marker}`, { body: { text: 'x' } }),
      send(service.url, `/v1/${marker}`, { body: { text: marker } }),
      send(service.url, '/v1/kernel-probe/crash', { body: { text: marker } }),
      send(service.url, '/v1/base64/encode', { body: { text: 'x' }, headers: { Authorization: `Bearer ${marker}` } }),
      send(service.url, '/v1/regex-tester/test', { body: { pattern: `(${marker}`, text: marker } }),
    ];
    const statuses = (await Promise.all(requests)).map((answer) => answer.status);
    assert.deepEqual(statuses, [200, 422, 400, 400, 200, 404, 500, 401, 422]);
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    const output = service.output();
    assert.ok(output.split('\n').filter((line) => line.includes('"msg":"request"')).length >= statuses.length, 'one access-log line per request');
    assert.equal(output.includes(marker), false, 'the marker never appears in stdout or stderr');
  });

  it('finishes 20 in-flight requests on SIGTERM, refuses new connections, and exits 0', async () => {
    const service = await startProcess('probe:\n  delayMs: 1500\n');
    const inFlight = Array.from({ length: 20 }, () => send(service.url, '/v1/kernel-probe/slow', { body: {} }));
    // Connections are accepted and read in order: once a later /healthz is answered, all 20 are in.
    assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
    service.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    assert.deepEqual(answers.map((answer) => answer.status), Array.from({ length: 20 }, () => 200));
    assert.equal(await service.exited, 0);
    await assert.rejects(send(service.url, '/healthz', { method: 'GET' }), /ECONNREFUSED/);
  });

  it('drains on SIGTERM: /healthz answers 503 draining while an in-flight request still completes with 200', async () => {
    // A drain delay longer than any test: the second SIGTERM ends it, so nothing here waits on time.
    const service = await startProcess('server:\n  drainDelayMs: 600000\n  shutdownTimeoutMs: 600000\n');
    const { port } = new URL(service.url);
    // In flight: headers and half the body sent; the rest is sent only after the drain is seen.
    const body = '{"text":"foobar"}';
    const inFlight = connect(Number(port), '127.0.0.1');
    let answer = '';
    inFlight.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise<void>((resolve) => inFlight.once('end', () => resolve()));
    inFlight.write(`POST /v1/base64/encode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 8)}`);
    // Connections are accepted in order: once a later /healthz is answered, the request is in.
    assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
    service.child.kill('SIGTERM');
    // Readiness fails first, on a new connection (still accepted during the drain delay). The
    // signal reaches the process when it does: ask until it has.
    let health = await send(service.url, '/healthz', { method: 'GET' });
    for (let tries = 0; health.status === 200 && tries < 400; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      health = await send(service.url, '/healthz', { method: 'GET' });
    }
    assert.equal(health.status, 503);
    assert.deepEqual(health.json, { status: 'draining' });
    assert.equal(health.headers.connection, 'close');
    // Every other answer is still served during the drain, and closes its connection.
    const during = await send(service.url, '/v1/base64/encode', { body: { text: 'f' } });
    assert.deepEqual([during.status, during.json, during.headers.connection], [200, { base64: 'Zg==' }, 'close']);
    // The second SIGTERM ends the delay: the listener closes while the request is still in flight.
    service.child.kill('SIGTERM');
    let refused = false;
    for (let tries = 0; !refused && tries < 400; tries++) {
      // A bare connect: an HTTP request accepted just before the listener closes may be reset,
      // which send() treats as an answer still to come (it waits for a 413's body otherwise).
      refused = await new Promise<boolean>((resolve) => {
        const probe = connect(Number(port), '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
      });
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(refused, 'new connections are refused once the drain delay ends');
    assert.equal(service.child.exitCode, null, 'the process waits for the request in flight');
    inFlight.end(body.slice(8));
    await answered;
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy".
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.ok(answer.endsWith('\r\n\r\n{"base64":"Zm9vYmFy"}'), answer);
    assert.equal(await service.exited, 0);
  });

  it('exits 0 within the shutdown timeout although a plugin\'s close() never returns', async () => {
    const service = await startProcess('server:\n  shutdownTimeoutMs: 300\n', { KERNEL_PROBE_HANG_ON_CLOSE: '1' });
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
  });

  it('keeps serving after a handler leaves a promise to reject unhandled, and logs it without its message', async () => {
    const service = await startProcess('');
    assert.equal((await send(service.url, '/v1/kernel-probe/stray', { body: { text: 'SECRET-7f3a' } })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' } })).status, 200);
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    assert.match(service.output(), /"msg":"unhandled rejection"/);
    assert.ok(!service.output().includes('SECRET-7f3a'));
  });

  it('refuses to start with a bad configuration, naming the key, and exits 1', async () => {
    const dir = tempFolder('toolshed-process-');
    const config = path.join(dir, 'config.yaml');
    await writeFile(config, 'rateLimit:\n  windowSeconds: -1\n');
    const child = spawn(process.execPath, [main], { env: { ...process.env, TOOLSHED_CONFIG: config, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1);
    assert.match(output, /\/rateLimit\/windowSeconds: must be >= 1/);
  });
});

describe('npm run keygen', () => {
  it('prints a tsk_ key and the config line holding its SHA-256', async () => {
    const keygen = fileURLToPath(new URL('../cli/keygen.js', import.meta.url));
    const child = spawn(process.execPath, [keygen, 'ci'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    assert.equal(await new Promise((resolve) => child.once('exit', resolve)), 0);
    const key = /(tsk_[0-9A-Za-z]{32})/.exec(output)?.[1];
    const digest = /- \{ name: ci, sha256: "([0-9a-f]{64})" \}/.exec(output)?.[1];
    assert.ok(key && digest, output);
    const { createHash } = await import('node:crypto');
    assert.equal(createHash('sha256').update(key).digest('hex'), digest);
  });
});
