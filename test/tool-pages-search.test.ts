// The list page's search, in Node: the table of what people type (test/support/search-queries.ts)
// ranked over the real service's document, each query's expected page first; and the pieces the
// ranking stands on (words, stems, stop words). The same table runs in the browser through the page
// (test/browser/tool-pages-trial.test.ts, "ranks the search").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION, builtinPluginDir } from '../kernel/host/index.js';
import { buildOpenApiDocument } from '../kernel/http/index.js';
import { catalogOf } from '../tool-pages/catalog.js';
import { queryWords, searcher, stem, wordsOf, type SearchEntry } from '../tool-pages/shared/search.js';
import { SEARCH_QUERIES } from './support/search-queries.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
let entries: SearchEntry[];
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
  const catalog = catalogOf(buildOpenApiDocument(service.host.executor.operations(), API_VERSION));
  // In the list's order, as the list page writes its index.
  entries = catalog.categories.flatMap((category) => category.groups.flatMap((group) => group.tools.map((tool) => tool.search)));
});
after(() => service.stop());

describe('the list page\'s search', () => {
  it(`opens the page a person expects for each of ${SEARCH_QUERIES.length} everyday queries`, () => {
    assert.ok(SEARCH_QUERIES.length >= 40, 'at least 40 queries');
    const rank = searcher(entries);
    const wrong = SEARCH_QUERIES.flatMap(([query, page]) => {
      const found = rank(query).map((entry) => entry.page);
      return found[0] === page ? [] : [`${query} → ${found.slice(0, 3).join(', ') || 'nothing'} (expected ${page})`];
    });
    assert.deepEqual(wrong, []);
  });

  it('weighs the operation\'s own name: "decode" picks Decode, "encode" Encode, in either order of the words', () => {
    const rank = searcher(entries);
    assert.deepEqual(rank('base64 decode').slice(0, 2).map((entry) => entry.page), ['/tools/base64/decode', '/tools/base64/encode']);
    assert.deepEqual(rank('encode base64').slice(0, 2).map((entry) => entry.page), ['/tools/base64/encode', '/tools/base64/decode']);
    // Every word must be found: a tool missing one is not listed.
    assert.deepEqual(rank('base64 qwertyuiop'), []);
    assert.deepEqual(rank(''), []);
  });

  it('reads words as people write them: camelCase split, accents and stop words dropped, endings stemmed', () => {
    assert.deepEqual(wordsOf('timeZone ISO-8601 Café'), ['time', 'zone', 'iso', '8601', 'cafe']);
    assert.deepEqual(queryWords('convert json to yaml'), ['convert', 'json', 'yaml']);
    // Only stop words: they are the query ("to").
    assert.deepEqual(queryWords('to'), ['to']);
    assert.deepEqual(['counter', 'counts', 'count', 'encoder', 'encoding', 'hashes', 'dns', 'dates'].map(stem), ['count', 'count', 'count', 'encod', 'encod', 'hash', 'dns', 'dat']);
  });
});
