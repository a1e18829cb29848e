// The benchmark's launch settings are the service's launch line: npm start, the Dockerfile and the
// systemd unit set the same variables and pass node no flag, and the bench and the loadtest start
// every server with exactly those (launch.ts). The Kubernetes manifest runs the image, so its
// settings are the Dockerfile's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { describeLaunch, LAUNCH_ENV, launchEnvironment, NODE_FLAGS } from './launch.js';

const read = (file: string): string => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const MALLOC = /^MALLOC_/;

describe('the launch line', () => {
  it("is npm start's: its variables with their defaults and node with no flag", () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    // `exec env …`: the shell is replaced, so a signal to npm's child reaches node (issue 39).
    const tokens = (start.split('&&').at(-1) ?? '').trim().split(/\s+/);
    assert.deepEqual(tokens.slice(0, 2), ['exec', 'env']);
    tokens.splice(0, 2);
    const node = tokens.indexOf('node');
    const variables = Object.fromEntries(
      tokens.slice(0, node).map((token) => {
        // NAME=${NAME:-default}: the operator's own value wins.
        const match = /^(\w+)=\$\{(\w+):-([^}]*)\}$/.exec(token);
        assert.ok(match !== null && match[1] === match[2], `npm start sets ${token} without keeping an operator's own value`);
        return [match[1], match[3]];
      }),
    );
    assert.deepEqual(variables, LAUNCH_ENV);
    assert.deepEqual(tokens.slice(node + 1), [...NODE_FLAGS, 'dist/service/main.js']);
  });
  it("is the Dockerfile's and the systemd unit's", () => {
    const docker = read('Dockerfile');
    const dockerEnv = Object.fromEntries(
      [...docker.matchAll(/^ENV (.+)$/gm)].flatMap((line) => (line[1] ?? '').split(/\s+/).map((pair) => pair.split('=') as [string, string])).filter(([name]) => MALLOC.test(name)),
    );
    assert.deepEqual(dockerEnv, LAUNCH_ENV);
    const command = JSON.stringify(['node', ...NODE_FLAGS, 'dist/service/main.js']).replaceAll('","', '", "');
    assert.ok(docker.split('\n').includes(`CMD ${command}`), `the Dockerfile runs CMD ${command}`);
    const unit = read('deploy/toolshed.service');
    const unitEnv = Object.fromEntries([...unit.matchAll(/^Environment=(MALLOC_\w+)=(.*)$/gm)].map((line) => [line[1], line[2]]));
    assert.deepEqual(unitEnv, LAUNCH_ENV);
    assert.ok(unit.split('\n').includes(['ExecStart=/usr/bin/node', ...NODE_FLAGS, '/opt/toolshed/dist/service/main.js'].join(' ')));
  });
  it("resolves as the shell's ${VAR:-default}: an operator's non-empty value wins, an empty one takes the default", () => {
    const resolved = launchEnvironment({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '', HOME: '/root' }, { BENCH_KEY_SHA256: 'ab' });
    assert.deepEqual(resolved, { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '1048576', HOME: '/root', BENCH_KEY_SHA256: 'ab' });
    assert.equal(describeLaunch({}), 'MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576, no node flags');
  });
});
