// Sends the hostile corpus's single-request rows in a loop, two at a time, until it is stopped.
import { kernelRows } from '../hostile/corpus.js';
import { send } from '../support/http.js';

const base = `http://127.0.0.1:${process.argv[2]}`;
const rows = kernelRows.filter((row) => row.concurrent === undefined);
const bodies = rows.map((row) => row.body());
let sent = 0;
let fiveHundreds = 0;

async function lane(offset: number): Promise<void> {
  for (let index = offset; ; index += 2) {
    const row = index % rows.length;
    const answer = await send(base, rows[row]!.path, { body: bodies[row]!, headers: { 'Content-Type': 'application/json' } }).catch(() => undefined);
    sent++;
    if (answer?.status === 500) fiveHundreds++;
  }
}

process.on('message', () => process.send?.({ sent, fiveHundreds }));
void lane(0);
void lane(1);
