// Reference 1, the ceiling: raw node:http, the body read by hand, no validation, no logging.
import { createServer } from 'node:http';
import { announce } from './child-ipc.js';
import { encode, ENCODE_PATH, hash, HASH_PATH, HEALTH_PATH, type EncodeBody, type HashBody } from './reference-work.js';

const json = { 'Content-Type': 'application/json; charset=utf-8' };
const work: Record<string, (body: EncodeBody & HashBody) => unknown> = { [ENCODE_PATH]: encode, [HASH_PATH]: hash };

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === HEALTH_PATH) {
    res.writeHead(200, json).end('{"status":"ok"}');
    return;
  }
  const operation = req.method === 'POST' ? work[req.url ?? ''] : undefined;
  if (operation === undefined) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let answer: string;
    try {
      answer = JSON.stringify(operation(JSON.parse(Buffer.concat(chunks).toString('utf8')) as EncodeBody & HashBody));
    } catch {
      res.writeHead(400, json).end('{"error":"bad request"}');
      return;
    }
    res.writeHead(200, json).end(answer);
  });
});
server.listen(0, '127.0.0.1', () => announce((server.address() as { port: number }).port));
