/**
 * A service started as an operator starts it (a command, not startTestService): its `listening`
 * log line gives the address, and the test then sends it signals and waits for its exit.
 */
import type { ChildProcess } from 'node:child_process';

/** The exit of a child process: its code, or the signal that ended it. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Resolves with the `url` of the JSON `listening` line the child prints; rejects if it exits first. */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let log = '';
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      log += chunk.toString();
      const lines = output.split('\n');
      output = lines.pop() ?? ''; // a line not yet ended waits for the next chunk
      for (const line of lines) {
        if (!line.startsWith('{')) continue; // npm's own lines ("> toolshed@1.0.0 start")
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url !== undefined) {
          child.stdout?.off('data', onData);
          child.stdout?.resume(); // keep draining the log so the child never blocks on a full pipe
          resolve(entry.url);
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`exited (${code ?? signal}) before listening\n${log}\n${errors}`)));
  });
}

/** The child's exit, whenever it comes (at once when it has exited already). */
export function exitOf(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
