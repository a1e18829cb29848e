/**
 * How `npm run bench` and `npm run loadtest` launch every server process, Toolshed and each peer
 * (raw node:http, Fastify, bare Koa) alike: with the node flags and the environment that `npm start`
 * uses, so that no server is measured with a setting the others lack (issue 38, item 6).
 *
 * `npm start` passes node no flag. It sets two variables that the C library (glibc) reads when the
 * process starts, before Node runs: they are not V8 flags, and no source file sets them. The
 * Dockerfile and the systemd unit set the same two (docs/decisions.md, "The launch line";
 * launch.test.ts holds that all four agree).
 */

/** The node flags of `npm start`'s launch line: none. */
export const NODE_FLAGS: readonly string[] = [];

/** The variables `npm start` sets, with its defaults: an operator's own non-empty value wins, as `${VAR:-default}` does in the shell. */
export const LAUNCH_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
};

/** The environment a server is started with: `env` (this process's), the launch line's variables as `npm start` resolves them, then `extra`. */
export function launchEnvironment(env: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const launch = Object.fromEntries(Object.entries(LAUNCH_ENV).map(([name, fallback]) => [name, env[name] === undefined || env[name] === '' ? fallback : env[name]]));
  return { ...env, ...launch, ...extra };
}

/** `MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576, no node flags`: what the reports' header line says every server ran with. */
export function describeLaunch(env: NodeJS.ProcessEnv): string {
  const resolved = launchEnvironment(env);
  const variables = Object.keys(LAUNCH_ENV).map((name) => `${name}=${resolved[name]}`);
  return `${variables.join(' ')}, ${NODE_FLAGS.length === 0 ? 'no node flags' : `node ${NODE_FLAGS.join(' ')}`}`;
}
