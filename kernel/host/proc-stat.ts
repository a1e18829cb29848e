/**
 * One line of Linux's `/proc/<pid>/stat` (proc(5)), read where the service and its tests need a
 * process's parent, state or CPU time without a native module. Everywhere else (no /proc, a process
 * gone meanwhile) it is undefined, and callers treat that as "cannot tell".
 */
import { readFileSync } from 'node:fs';

export interface ProcStat {
  /** The command name (at most 15 characters; it may hold spaces and parentheses). */
  readonly command: string;
  /** R running, S sleeping, Z zombie, … */
  readonly state: string;
  readonly parent: number;
  /** User and system CPU time in ms, from clock ticks of 10 ms (Linux's USER_HZ). */
  readonly cpuMs: number;
}

/** `/proc/<pid>/stat` for a pid, or the stat file at a path (a thread's: `/proc/self/task/<tid>/stat`). */
export function readProcStat(pidOrPath: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(typeof pidOrPath === 'number' ? `/proc/${pidOrPath}/stat` : pidOrPath, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name, which is in parentheses: state is [0], parent [1], utime [11], stime [12].
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { command: stat.slice(stat.indexOf('(') + 1, close), state: fields[0] ?? '', parent: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}
