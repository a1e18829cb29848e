// The first step of the test command: the programs the tests start besides Node. The shared
// rate-limit tests start a real redis-server; the browser test drives Debian's /usr/bin/chromium
// (playwright-core downloads no browser). On Debian or Ubuntu as root the missing packages are
// installed with apt-get, as .ci/run relies on; anywhere else the run stops at once with one line
// naming them, instead of failing tests minutes later.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Debian package each test needs, with how to tell it is there. */
const needed = [
  { pkg: 'redis-server', present: () => onPath('redis-server') },
  { pkg: 'chromium', present: () => executable('/usr/bin/chromium') },
];

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, command)));
}

/** Debian or a derivative (Ubuntu), from /etc/os-release. */
function debianLike() {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\bdebian\b/m.test(release);
  } catch {
    return false;
  }
}

function apt(args) {
  return spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
}

/** What the step asks of the machine; tests pass their own. */
export const thisMachine = {
  missing: () => needed.filter((need) => !need.present()).map((need) => need.pkg),
  canInstall: () => debianLike() && process.getuid?.() === 0 && onPath('apt-get'),
  apt,
};

/** Returns the line to print when the tests cannot run here, or undefined when everything is there. */
export function providePrerequisites(machine = thisMachine) {
  const missing = machine.missing();
  if (missing.length === 0) return undefined;
  const stop = `npm test needs the packages ${missing.join(' and ')} (Debian names; chromium at /usr/bin/chromium): install them, or run npm test as root on Debian or Ubuntu to have them installed`;
  if (!machine.canInstall()) return stop;
  console.log(`Installing ${missing.join(' ')} with apt-get`);
  if (!machine.apt(['update', '-qq']) || !machine.apt(['install', '-y', '-qq', ...missing])) return `apt-get could not install them; ${stop}`;
  const still = machine.missing();
  return still.length === 0 ? undefined : `apt-get ran, but ${still.join(' and ')} is still missing; ${stop}`;
}

// Run alone (`node scripts/test-prerequisites.mjs`) it does only this step.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = providePrerequisites();
  if (problem !== undefined) {
    console.error(problem);
    process.exit(1);
  }
}
