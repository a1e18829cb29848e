// The coverage step before the two reports (scripts/test.mjs): `node scripts/trim-coverage.mjs
// <folder>` rewrites each raw coverage file of <folder> (NODE_V8_COVERAGE's output) keeping only the
// scripts a report can count: files of this checkout, outside node_modules, whose source map names
// a source outside node_modules. Every other script's coverage lands, after the source maps, on a
// path neither report includes (.c8rc.json's folders, plugins/): a dependency's bundle
// (plugin-sdk/dist/typebox.js, the vendored Koa), bin/, scripts/, a test fixture, an installed copy
// in a temporary folder, npm. They were three quarters of the raw coverage, and both reports read
// and merged all of it, each in its own process.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const folder = process.argv[2];
if (folder === undefined) {
  console.error('usage: node scripts/trim-coverage.mjs <raw coverage folder>');
  process.exit(2);
}
/** This checkout as a file: URL prefix, as V8 writes script URLs. */
const root = pathToFileURL(path.resolve('.') + path.sep).href;

/** Whether a script with no source map in the raw file names one itself, by URL: read once each. */
const namesMap = new Map();
/**
 * True when a report may count `url`'s coverage: see the comment above. A script of the checkout
 * whose source map the raw file lacks (Node caches the maps of the modules it loads) is kept when
 * it names one, so that c8 reads the map as it would have.
 */
function counted(url, sourceMaps) {
  if (!url.startsWith(root) || url.includes('/node_modules/')) return false;
  const sources = sourceMaps[url]?.data?.sources;
  if (Array.isArray(sources)) return sources.some((source) => !source.includes('node_modules/'));
  if (!namesMap.has(url)) {
    let text = '';
    try {
      text = readFileSync(fileURLToPath(url), 'utf8');
    } catch {
      // gone since (a file the tests wrote): nothing to map it with
    }
    namesMap.set(url, /^\/\/# sourceMappingURL=/m.test(text));
  }
  return namesMap.get(url);
}

let before = 0;
let unreadable = 0;
let after = 0;
for (const name of readdirSync(folder).filter((file) => file.endsWith('.json'))) {
  const file = path.join(folder, name);
  const text = readFileSync(file, 'utf8');
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    // Cut short: a process ended (SIGKILL) while writing it. Left as it is, as c8 would find it
    // untrimmed (it skips a file it cannot parse).
    unreadable++;
    continue;
  }
  const sourceMaps = raw['source-map-cache'] ?? {};
  const result = raw.result.filter(({ url }) => counted(url, sourceMaps));
  const kept = Object.fromEntries(Object.entries(sourceMaps).filter(([url]) => counted(url, sourceMaps)));
  const trimmed = JSON.stringify({ ...raw, result, 'source-map-cache': kept });
  writeFileSync(file, trimmed);
  before += text.length;
  after += trimmed.length;
}
console.log(`raw coverage: ${Math.round(before / 1e6)} MB, ${Math.round(after / 1e6)} MB of it of this checkout's sources${unreadable > 0 ? `; ${unreadable} file(s) cut short left as they are` : ''}`);
