/**
 * A long-running command started by npm stops when npm is told to. `npx toolshed serve` is three
 * processes, npm → `sh -c toolshed serve` → node, and npm passes SIGTERM on to the shell only: the
 * shell dies of it and node, re-parented to init, would go on serving. (`npm start` is spared: its
 * script ends in `exec`, so npm's child is node itself.) So a process that npm started takes the
 * exit of its parent as that signal. Anything else (systemd, a container, `node dist/service/main.js`
 * from a shell) is left alone: a service started with `nohup … &` must outlive the shell.
 */

/** How often the parent is looked at: a stop begins at most this long after npm ended. */
const CHECK_MS = 250;

/** Whether npm (or a package manager like it) started this process: it sets `npm_lifecycle_event`. */
export function startedByPackageManager(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/**
 * Calls `onExit` once when the parent process of this one has exited, if a package manager started
 * it (see above); returns a function that stops watching. The check holds no event loop open.
 */
export function whenParentExits(env: NodeJS.ProcessEnv, onExit: () => void): () => void {
  if (!startedByPackageManager(env)) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    // process.ppid is read from the system each time: an orphan's parent is init or a subreaper.
    if (process.ppid === parent) return;
    clearInterval(timer);
    onExit();
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
