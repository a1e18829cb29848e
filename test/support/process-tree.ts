/** The processes below one, from Linux's /proc: what a test or the test runner ends or names when something hangs. */
import { readdirSync, readFileSync } from 'node:fs';
import { readProcStat, type ProcStat } from '../../kernel/host/proc-stat.js';

export interface ChildProcessInfo {
  readonly pid: number;
  readonly command: string;
}

/** Every process /proc shows now, by id (none where there is no /proc; one gone meanwhile is left out). */
function processTable(): Map<number, ProcStat> {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return new Map(); // no /proc: nothing to name
  }
  const table = new Map<number, ProcStat>();
  for (const entry of entries) {
    const stat = readProcStat(Number(entry));
    if (stat !== undefined) table.set(Number(entry), stat);
  }
  return table;
}

/** The processes whose parent is `parent`, with their command names. */
export function childrenOf(parent: number): ChildProcessInfo[] {
  return [...processTable()].flatMap(([pid, stat]) => (stat.parent === parent ? [{ pid, command: stat.command }] : []));
}

/** Every process below `root`, depth first, each with its whole command line. */
export function descendantsOf(root: number): ChildProcessInfo[] {
  const table = processTable();
  const found: ChildProcessInfo[] = [];
  const below = (pid: number): void => {
    for (const [child, stat] of table) {
      if (stat.parent !== pid) continue;
      let command = '';
      try {
        command = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        // ended meanwhile
      }
      found.push({ pid: child, command });
      below(child);
    }
  };
  below(root);
  return found;
}
