import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { freshBundle, freshManifestData, preferBundle } from './bundles.js';
import { WorkerPool } from './pool/worker-pool.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A folder of plain modules whose `where()` says which file answered, each written at `second`. */
function folderOf(files: Record<string, number>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'toolshed-bundles-'));
  folders.push(folder);
  for (const [name, second] of Object.entries(files)) {
    writeFileSync(path.join(folder, name), `export const where = () => ${JSON.stringify(name)};\n`);
    utimesSync(path.join(folder, name), second, second);
  }
  return folder;
}

describe('freshBundle', () => {
  it('names the bundle beside a module when nothing in the folder is newer', () => {
    const folder = folderOf({ 'job.js': 100, 'helper.js': 100, 'job.bundle.js': 100, 'index.js': 90, 'index.bundle.js': 50, 'notes.txt': 500 });
    assert.equal(freshBundle(path.join(folder, 'job.js')), path.join(folder, 'job.bundle.js'));
  });

  it('gives none when another module in the folder is newer than the bundle (a stale bundle)', () => {
    const folder = folderOf({ 'job.js': 100, 'helper.js': 101, 'job.bundle.js': 100 });
    assert.equal(freshBundle(path.join(folder, 'job.js')), undefined);
  });

  it('gives none without a bundle, and for a bundle or a file that is no module', () => {
    const folder = folderOf({ 'job.js': 100, 'job.bundle.js': 100 });
    assert.equal(freshBundle(path.join(folder, 'other.js')), undefined);
    assert.equal(freshBundle(path.join(folder, 'job.bundle.js')), undefined);
    assert.equal(freshBundle(path.join(folder, 'job.ts')), undefined);
  });

  it('leaves specifiers that are not plain file URLs alone', () => {
    const folder = folderOf({ 'job.js': 100, 'job.bundle.js': 100 });
    const job = pathToFileURL(path.join(folder, 'job.js')).href;
    assert.equal(preferBundle(job), pathToFileURL(path.join(folder, 'job.bundle.js')).href);
    assert.equal(preferBundle(`${job}?instance=2`), `${job}?instance=2`);
    assert.equal(preferBundle('node:fs'), 'node:fs');
    assert.equal(preferBundle('some-package'), 'some-package');
  });
});

describe('a pool worker', () => {
  const pool = new WorkerPool({ workers: 1, memoryMb: 64, maxQueue: 4, idleMs: 30_000 });
  after(() => pool.close());

  it('runs a job from the fresh bundle beside its module, and from the module once the bundle is stale', async () => {
    const fresh = folderOf({ 'job.js': 100, 'job.bundle.js': 100 });
    assert.equal(await pool.run(pathToFileURL(path.join(fresh, 'job.js')), 'where', [], { deadlineMs: 60_000 }), 'job.bundle.js');
    const stale = folderOf({ 'job.js': 101, 'job.bundle.js': 100 });
    assert.equal(await pool.run(pathToFileURL(path.join(stale, 'job.js')), 'where', [], { deadlineMs: 60_000 }), 'job.js');
  });
});

describe('freshManifestData', () => {
  it('names index.manifest.v8 while no JavaScript file in the folder, bundles included, is newer', () => {
    const fresh = folderOf({ 'index.js': 100, 'index.bundle.js': 100, 'index.manifest.v8': 100 });
    assert.equal(freshManifestData(path.join(fresh, 'index.js')), path.join(fresh, 'index.manifest.v8'));
    const staleBundle = folderOf({ 'index.js': 100, 'index.bundle.js': 101, 'index.manifest.v8': 100 });
    assert.equal(freshManifestData(path.join(staleBundle, 'index.js')), undefined);
    const staleModule = folderOf({ 'index.js': 100, 'format.js': 101, 'index.manifest.v8': 100 });
    assert.equal(freshManifestData(path.join(staleModule, 'index.js')), undefined);
    assert.equal(freshManifestData(path.join(folderOf({ 'index.js': 100 }), 'index.js')), undefined);
  });
});
