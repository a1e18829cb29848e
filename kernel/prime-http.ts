/**
 * One HTTP exchange on a private loopback server, before the warm-up runs any example. The first
 * request a process ever serves over a real socket changes object shapes inside Node's net and
 * http code, and V8 throws away optimised code that depended on the old ones: traced with
 * `--trace-deopt`, the first POST after the warm-up marked all twelve functions qr-code-generator's
 * create had optimised "for deoptimization, reason: code dependencies", so its first call cost
 * 25–40 ms against 3 for the next. After one exchange here the warm-up's code stays optimised
 * (first call 5 ms). The service's own server is not used: nothing of this is a request to it (no
 * access-log line, no rate-limit hit, nothing in /metrics, no API key needed).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback exchange takes well under a millisecond; past this the warm-up goes on without it. */
const GUARD_MS = 2000;

/**
 * Serves one POST with a small JSON body on 127.0.0.1 (an ephemeral port) and reads the answer.
 * Resolves to the status the client read (200), or 0 when the machine has no IPv4 loopback, the
 * exchange failed, or it took longer than {@link GUARD_MS}; it never rejects.
 */
export function primeHttp(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{"status":"ok"}'));
    });
    let settled = false;
    const finish = (status: number): void => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      server.close();
      server.closeAllConnections();
      resolve(status);
    };
    const guard = setTimeout(() => finish(0), GUARD_MS);
    server.on('error', () => finish(0));
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const body = '{"prime":true}';
      const req = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, Connection: 'close' } }, (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode ?? 0));
        res.on('error', () => finish(0));
      });
      req.on('error', () => finish(0));
      req.end(body);
    });
  });
}
