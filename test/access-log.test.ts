// The hand-built access-log line must be the very line pino writes for the same entry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { accessLine, accessLogger, type AccessEntry } from '../kernel/access-log.js';

/** What pino itself writes for `entry`, with its clock fixed at `time`. */
function pinoLine(entry: AccessEntry, time: number): string {
  let written = '';
  const logger = pino({ level: 'info', base: null, messageKey: 'msg', timestamp: () => `,"time":${time}` }, { write: (line: string) => (written += line) });
  logger.info(entry, 'request');
  return written;
}

const full: AccessEntry = { requestId: '01JD0000000000000000000000', operation: 'base64.encode', method: 'POST', status: 200, durationMs: 0.42, ip: '::ffff:127.0.0.1', key: 'ci "quoted" \\ ünïcode' };

describe('the access-log line', () => {
  it('is byte for byte the line pino writes, undefined fields left out', () => {
    const time = 1732406400123;
    // Plain values (quoted as they are) and values JSON must escape (the key; an address a proxy header gave).
    const escaped = { ...full, ip: '10.0.0.1"\u0001', operation: 'a\\b' };
    for (const entry of [full, escaped, { ...full, operation: undefined, key: undefined }, { ...full, requestId: undefined, status: 404, durationMs: 12 }]) {
      assert.equal(accessLine(entry, time), pinoLine(entry, time));
    }
  });

  it("is written to the logger's stream at info, and not at warn", () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) };
    accessLogger(pino({ level: 'info', base: null, messageKey: 'msg' }, destination))(full);
    accessLogger(pino({ level: 'warn', base: null, messageKey: 'msg' }, destination))(full);
    assert.equal(lines.length, 1);
    assert.deepEqual({ ...JSON.parse(lines[0]!), time: 0 }, { level: 30, time: 0, ...full, msg: 'request' });
  });
});
