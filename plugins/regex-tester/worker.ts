/** Worker thread entry: runs one regex job per message. */
import { parentPort } from 'node:worker_threads';
import { runRegex, type RegexJob } from './match.js';
import { WORKER_READY } from './pool.js';

parentPort?.on('message', (job: RegexJob) => parentPort?.postMessage(runRegex(job)));
parentPort?.postMessage(WORKER_READY);
