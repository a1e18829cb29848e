// Baseline 1: raw node:http answering base64.encode with no framework, no validation.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/base64/encode') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
    const body = JSON.stringify({ base64: Buffer.from(text, 'utf8').toString('base64') });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
