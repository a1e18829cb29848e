// The README's test command on a fresh machine: its first step (scripts/test-prerequisites.mjs)
// provides redis-server and chromium with apt-get on Debian or Ubuntu as root, and anywhere else
// stops at once with one line naming the packages. The machine is a stand-in here; the real run in
// a mount namespace without both programs is described in docs/decisions.md (issue 22).
import assert from 'node:assert/strict';
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
