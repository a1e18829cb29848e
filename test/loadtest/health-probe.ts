// Probes /healthz every 10 ms between 'start' and 'stop' and answers 'stop' with the p99 of its
// latencies. Its own process: inside the load generator's, the probe's timings waited on autocannon's
// event loop (200 connections' worth of parsing per turn) and measured the client, not the service.
import { Agent, request } from 'node:http';

const base = `http://127.0.0.1:${process.argv[2]}`;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let running: Promise<number[]> | undefined;
let stopped = false;

async function probe(): Promise<number[]> {
  const latencies: number[] = [];
  while (!stopped) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const req = request(`${base}/healthz`, { agent }, (res) => res.resume().on('end', () => resolve()));
      req.on('error', () => resolve());
      req.end();
    });
    latencies.push(performance.now() - started);
    await sleep(10);
  }
  return latencies;
}

process.on('message', (message) => {
  if (message === 'start') {
    stopped = false;
    running = probe();
    process.send?.('started');
  } else if (message === 'stop') {
    stopped = true;
    void running?.then((latencies) => {
      latencies.sort((a, b) => a - b);
      process.send?.(latencies[Math.floor(latencies.length * 0.99)] ?? 0);
    });
  }
});
process.send?.('ready');
