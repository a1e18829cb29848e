// Whether the test command collects coverage on this Node: on the major version of the engines
// field's floor only (Node 20 today, CI's first leg). On Node 26 the same tests ran 180 s without
// coverage and 228 s with it (a quiet 2-core machine, 2026-11): its V8 runs block-covered, CPU-bound
// code up to seven times slower (word-counter's stats tests 1.8 s → 12.5 s; Node 20: 2.4 → 4.8 s).
// The tests run on every Node either way; what they cover is measured once.
import { readFileSync } from 'node:fs';

/** The major version of the floor of `engines.node` (">=20.19.0" → 20). */
export function enginesFloor(range) {
  const major = /^>=\s*(\d+)\./.exec(range)?.[1];
  if (major === undefined) throw new Error(`engines.node is "${range}"; the test command reads a floor written >=MAJOR.MINOR.PATCH`);
  return Number(major);
}

/** True when Node `version` (process.versions.node) is of the floor's major version. */
export function collectsCoverage(version, range) {
  return Number(version.split('.')[0]) === enginesFloor(range);
}

/** The decision for this process's Node and this checkout's package.json. */
export function coverageHere() {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return collectsCoverage(process.versions.node, engines.node);
}
