// The README is read on a fresh clone, often offline: every link must point into the repository and
// every command it gives must exist.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('README', () => {
  it('links only to files of the repository, all of which exist', () => {
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    assert.ok(targets.length > 5);
    for (const target of targets) {
      assert.doesNotMatch(target, /^[a-z]+:/i, `${target} leaves the repository`);
      assert.ok(existsSync(new URL(target.split('#')[0]!, root)), `${target} does not exist`);
    }
    assert.doesNotMatch(readme, /<https?:/, 'no autolinks out of the repository');
  });

  it('names only npm scripts that exist, and the two commands first', () => {
    for (const [, name] of readme.matchAll(/npm run ([a-z:]+)/g)) assert.ok(scripts[name!] !== undefined, `npm run ${name}`);
    assert.match(readme, /npm ci && npm start[^\n]*\nnpm ci && npm test/);
  });

  it('gives the pool\'s real thresholds: workers.offloadBytes and workers.linearOffloadBytes', async () => {
    const { defaultsFile, loadConfig } = await import('../kernel/host/config.js');
    const { workers } = await loadConfig({}, defaultsFile);
    const flat = readme.replace(/\s+/g, ' ');
    const kib = (bytes: number): string => `${bytes / 1024} KiB`;
    assert.ok(flat.includes(`bodies over ${kib(workers.offloadBytes)}, \`workers.offloadBytes\``), 'offloadBytes');
    assert.ok(flat.includes(`over ${kib(workers.linearOffloadBytes)} for operations whose work is linear and cheap, such as base64 and hash, \`workers.linearOffloadBytes\``), 'linearOffloadBytes');
  });
});
