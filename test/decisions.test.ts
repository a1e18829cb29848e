// The record of decisions is for people to read (issue 47): docs/decisions.md by subject, each
// plugin's beside it, each entry short and current with the test that holds it. This holds the
// shape a reader relies on: every file and test it names exists, every quoted test name is that
// test's, lines are short, no entry tells history, and every pointer into it from the code lands.
// Entries other branches append at the end (`## Pending merge: <branch>`) are not read.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fg from 'fast-glob';

const root = new URL('../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), 'utf8');
/** A file's text up to the pending entries of other branches. */
const settled = (file: string): string => read(file).split(/^## Pending merge/m)[0]!;

const records = ['docs/decisions.md', ...fg.sync(['plugins/*/DECISIONS.md', 'examples/*/DECISIONS.md'], { cwd: new URL(root).pathname }).sort()];

/** The top-level entries of a record (`- ` at the start of a line), each with its indented lines. */
function entries(text: string): string[] {
  const found: string[] = [];
  let open = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      found.push(line);
      open = true;
    } else if (open && /^\s+\S/.test(line)) found[found.length - 1] += `\n${line}`;
    else if (line.trim() !== '') open = false;
  }
  return found.map((entry) => entry.replace(/\s+/g, ' '));
}

/** Repository files an entry names in backticks: a path with a file extension, no pattern in it. */
const namedFiles = (text: string): string[] =>
  [...text.matchAll(/`((?:\.?[\w@-]+\/)+[\w.@-]+\.(?:ts|mjs|js|md|yaml|json|conf|sh|service))`/g)].map((match) => match[1]!).filter((file) => !file.startsWith('dist/'));

describe('the record of decisions', () => {
  it('is docs/decisions.md and a DECISIONS.md beside each plugin that has decisions of its own', () => {
    assert.ok(records.length > 20, records.join(', '));
    assert.ok(records.includes('plugins/regex-tester/DECISIONS.md'));
  });

  it('has lines of at most 100 characters, and headings by subject, not by issue', () => {
    for (const file of records) {
      for (const [index, line] of settled(file).split('\n').entries()) {
        const characters = [...line].length;
        assert.ok(characters <= 100, `${file}:${index + 1} has ${characters} characters`);
        assert.doesNotMatch(line, /^#+ .*\bissues?\b/i, `${file}:${index + 1} names an issue in a heading`);
      }
    }
  });

  it('says what holds now: no history', () => {
    for (const file of records) {
      const text = settled(file).replace(/\s+/g, ' ');
      assert.doesNotMatch(text, /\b(earlier versions?|no longer|used to be|formerly|the first version)\b/i, file);
    }
  });

  it('names the test that holds each decision, or why none can', () => {
    for (const file of records) {
      for (const entry of entries(settled(file))) {
        const tests = namedFiles(entry).filter((named) => /\.test\.ts$|^test\//.test(named));
        assert.ok(tests.length > 0 || /\(not tested: /.test(entry), `${file}: no test named in "${entry.slice(0, 90)}…"`);
      }
    }
  });

  it('names only files that exist', () => {
    for (const file of records) {
      for (const named of namedFiles(settled(file))) assert.ok(existsSync(new URL(named, root)), `${file} names ${named}`);
    }
  });

  it('quotes each test by a name that test has', () => {
    for (const file of records) {
      // After a test file in backticks, the quoted names of its tests, up to the next file or entry.
      for (const [reference] of entries(settled(file)).join('\n').matchAll(/`[^`]+\.test\.ts`[^`\n]*/g)) {
        const test = /`([^`]+)`/.exec(reference)![1]!;
        if (!existsSync(new URL(test, root))) continue; // named-files test reports it
        const source = read(test).replace(/\\'/g, "'").replace(/\s+/g, ' ');
        for (const [, quoted] of reference.matchAll(/"([^"]+)"/g)) {
          const name = quoted!.replace(/^…|…$/g, '').trim(); // a quoted start or end of a name
          assert.ok(source.includes(name), `${file}: ${test} has no test named "${name}"`);
        }
      }
    }
  });

  it('has every section the code points to by name', () => {
    const titles = settled('docs/decisions.md')
      .split('\n')
      .flatMap((line) => [/^#+ (.+)$/.exec(line)?.[1], ...[...line.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1])])
      .filter((title): title is string => title !== undefined)
      .map((title) => title.toLowerCase());
    const sources = fg.sync(['**/*.{ts,mjs,js}', '.dependency-cruiser.mjs'], { cwd: new URL(root).pathname, ignore: ['node_modules/**', '**/node_modules/**', 'dist/**', '**/dist/**', 'test/decisions.test.ts'], dot: true });
    let pointers = 0;
    for (const source of sources) {
      const text = read(source).replace(/\s*\n\s*(\/\/|\*)?\s*/g, ' ');
      for (const [, section] of text.matchAll(/decisions\.md[,(\s]+"([^"]+)"/g)) {
        pointers++;
        const wanted = section!.replace(/…$/, '').toLowerCase();
        assert.ok(titles.some((title) => title.startsWith(wanted)), `${source} points to "${section}", which docs/decisions.md does not have`);
      }
      assert.doesNotMatch(text, /decisions\.md[,(\s]+issue/i, `${source} points to docs/decisions.md by issue: name the section`);
    }
    assert.ok(pointers >= 5, `${pointers} pointers found`);
  });
});
