// readProcStat against stat lines written by hand in proc(5)'s layout, and against this process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readProcStat } from './proc-stat.js';

const dir = mkdtempSync(path.join(tmpdir(), 'toolshed-proc-stat-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function statFile(line: string): string {
  const file = path.join(dir, `stat-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, line);
  return file;
}

describe('readProcStat', () => {
  it('reads the command, state, parent and CPU time of a line whose command holds spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime …
    const file = statFile('4242 (node (a) b) S 99 4242 4242 0 -1 4194560 1200 0 3 0 150 50 0 0 20 0 7 0\n');
    // (150 + 50) ticks of 10 ms
    assert.deepEqual(readProcStat(file), { command: 'node (a) b', state: 'S', parent: 99, cpuMs: 2000 });
  });
  it('reads this process: its parent is the one Node reports', () => {
    const own = readProcStat(process.pid);
    assert.equal(own?.parent, process.ppid);
    assert.equal(own?.state, 'R', 'this process is running while it reads itself');
  });
  it('is undefined for a process that is not there', () => {
    assert.equal(readProcStat(path.join(dir, 'gone')), undefined);
  });
});
