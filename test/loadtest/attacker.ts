// Sends the hostile corpus's single-request rows in a loop, two at a time, until it is stopped.
// It builds every body first (seconds of CPU, about 120 MB), then tells its parent it is ready once
// both lanes have had an answer: a run measured before that would measure no attack at all.
import { kernelRows } from '../hostile/corpus.js';
import { send } from '../support/http.js';

const base = `http://127.0.0.1:${process.argv[2]}`;
const rows = kernelRows.filter((row) => row.concurrent === undefined);
const bodies = rows.map((row) => row.body());
const counts = { sent: 0, answered: 0, fiveHundreds: 0 };
const lanes = 2;
let lanesAnswered = 0;

async function lane(offset: number): Promise<void> {
  let first = true;
  for (let index = offset; ; index += lanes) {
    const row = index % rows.length;
    counts.sent++;
    // send() waits for an answer after a reset (a 413 may follow it); a reset with no answer would
    // hold the lane forever, so a request unanswered after 30 s counts as not answered.
    const answer = await Promise.race([
      send(base, rows[row]!.path, { body: bodies[row]!, headers: { 'Content-Type': 'application/json' } }).catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000).unref()),
    ]);
    if (answer === undefined) continue;
    counts.answered++;
    if (answer.status === 500) counts.fiveHundreds++;
    if (first && ++lanesAnswered === lanes) process.send?.('ready');
    first = false;
  }
}

// 'reset' starts the counts of the measured run; anything else asks for them.
process.on('message', (message) => {
  if (message === 'reset') Object.assign(counts, { sent: 0, answered: 0, fiveHundreds: 0 });
  process.send?.({ ...counts });
});
for (let offset = 0; offset < lanes; offset++) void lane(offset);
