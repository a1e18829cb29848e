/** The processes below one, from Linux's /proc: what a test or the test runner ends or names when something hangs. */
import { readdirSync, readFileSync } from 'node:fs';
import { readProcStat } from '../../kernel/host/proc-stat.js';

export interface ChildProcessInfo {
  readonly pid: number;
  readonly command: string;
}

function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return []; // no /proc: nothing to name
  }
}

/** The processes whose parent is `parent`, with their command names (none where there is no /proc). */
export function childrenOf(parent: number): ChildProcessInfo[] {
  return processIds().flatMap((pid) => {
    const stat = readProcStat(pid);
    return stat?.parent === parent ? [{ pid, command: stat.command }] : [];
  });
}

/** Every process below `root`, depth first, each with its whole command line. */
export function descendantsOf(root: number): ChildProcessInfo[] {
  const parents = new Map<number, number>();
  for (const pid of processIds()) {
    const stat = readProcStat(pid);
    if (stat !== undefined) parents.set(pid, stat.parent);
  }
  const found: ChildProcessInfo[] = [];
  const below = (pid: number): void => {
    for (const [child, parent] of parents) {
      if (parent !== pid) continue;
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
