/**
 * Regenerates unicode-tables.data.ts from the running Node's ICU, after a Node upgrade brings a
 * new Unicode version: `npm run build && node dist/plugins/word-counter/write-unicode-tables.js`.
 * The tests of stored-tables.test.ts then hold the new data against freshly built tables.
 */
import { writeFileSync } from 'node:fs';
import { buildGraphemeTable } from './grapheme-classes.js';
import { buildCategoryTable } from './letters.js';
import { tablesSource } from './stored-tables.js';

const unicode = process.versions.unicode;
if (unicode === undefined) throw new Error('this Node has no ICU: there are no Unicode tables to write');
const target = new URL('../../../plugins/word-counter/unicode-tables.data.ts', import.meta.url);
writeFileSync(target, tablesSource(unicode, buildGraphemeTable(), buildCategoryTable()));
