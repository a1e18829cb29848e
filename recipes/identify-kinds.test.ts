// Issue 46's kinds: what a person pastes that a tool reads, each with its recipe; what no tool reads,
// named with a note; the operation as the judge (one run for many recognizers, its answer read).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { identify } from './identify.js';
import { PREVIEW_BYTES } from './preview.js';
import { runRecipe } from './run.js';

let executor: FakeExecutor;
before(async () => {
  executor = await fakeExecutor();
});

const best = async (input: string) => (await identify(executor, { input })).candidates[0];

describe('identify names every value a tool here reads, with the recipe that reads it', () => {
  const cases: [name: string, input: string, kind: string, steps: unknown[]][] = [
    ['a colour name', 'cornflowerblue', 'css-color', [{ operation: 'color-converter/convert' }]],
    ['a Unix time in milliseconds', '1700000000000', 'unix-timestamp', [{ operation: 'timestamp-converter/convert' }]],
    ['a UUID', 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6', 'uuid', [{ operation: 'uuid-generator/decode' }]],
    ['six cron fields, seconds first (Quartz ? as *)', '0 0 12 * * ?', 'cron', [{ operation: 'cron-expression/explain', body: { expression: '0 12 * * *' } }]],
    ['a crontab line', '5 0 * * * $HOME/bin/daily.job >> $HOME/tmp/out 2>&1', 'cron', [{ operation: 'cron-expression/explain', body: { expression: '5 0 * * *' } }]],
    ['a URL with a query string', 'https://shop.example/search?q=caf%C3%A9&page=2', 'url', [{ operation: 'url-encoder/parse' }]],
    ['a regular expression literal', '/^(\\d{3})-(\\d{4})$/gm', 'regex', [{ operation: 'regex-tester/test', body: { text: '', pattern: '^(\\d{3})-(\\d{4})$', flags: 'gm' } }]],
    ['an email address (QR email form)', 'mary@example.net', 'email', [{ operation: 'qr-code-generator/create', body: { content: { type: 'email', to: 'mary@example.net' } } }]],
    ['percent-encoding twice', 'a%2520b%253Dc', 'percent-encoding', [{ operation: 'url-encoder/decode' }, { operation: 'url-encoder/decode' }]],
  ];
  for (const [name, input, kind, steps] of cases) {
    it(`${name}: ${kind}`, async () => {
      const candidate = await best(input);
      assert.deepEqual([candidate?.kind, candidate?.recipe.steps], [kind, steps]);
      assert.ok(candidate!.confidence > 0.5, `${candidate?.confidence}`);
      await runRecipe(executor, { input, steps: candidate!.recipe.steps });
    });
  }

  it('answers what the operations read: the CSV rows, the milliseconds, the regex matches none of an empty text', async () => {
    assert.deepEqual((await best('1700000000000'))?.title, 'Unix timestamp (milliseconds)');
    assert.equal(((await best('1700000000000'))?.preview as { iso: string }).iso, '2023-11-14T22:13:20.000Z');
    assert.deepEqual((await best('mary@example.net'))?.preview, (await best('mailto:mary@example.net'))?.preview);
    assert.equal(((await best('mary@example.net'))?.preview as { payload: string }).payload, 'mailto:mary@example.net');
  });

  it('names prose (the word counter), never above 0.5', async () => {
    const input = 'The meeting has been moved to Thursday afternoon; please bring the quarterly figures.';
    const { candidates } = await identify(executor, { input });
    assert.deepEqual([candidates[0]?.kind, candidates[0]?.recipe.steps], ['prose', [{ operation: 'word-counter/stats' }]]);
    assert.ok(candidates.every((candidate) => candidate.confidence <= 0.5));
    assert.equal((candidates[0]?.preview as { words: number }).words, 13);
  });

  it('does not run a colour into the colour converter again: a colour is one step', async () => {
    assert.deepEqual((await best('rebeccapurple'))?.recipe.steps, [{ operation: 'color-converter/convert' }]);
  });

  it('reads 0x and hex digits both ways: a number first up to 64 bits, bytes first beyond', async () => {
    assert.deepEqual((await best('0x7fffffff'))?.kind, 'hex-number');
    const short = (await identify(executor, { input: `0x${Buffer.from('{"a":1}').toString('hex')}` })).candidates;
    assert.deepEqual(short.map((candidate) => candidate.kind).slice(0, 2), ['hex-number', 'hex-bytes']);
    assert.deepEqual(short[1]?.recipe.steps.map((step) => step.operation), ['text-converter/decode', 'json-formatter/format']);
    const long = (await identify(executor, { input: `0x${Buffer.from('{"name":"toolshed","port":8080}').toString('hex')}` })).candidates;
    assert.deepEqual(long.map((candidate) => [candidate.kind, candidate.confidence > 0.5]).slice(0, 2), [['hex-bytes', true], ['hex-number', false]]);
  });
});

describe('identify names what no tool here reads', () => {
  const abc = (algorithm: string) => createHash(algorithm).update('abc').digest('hex');
  const cases: [input: string, kind: string][] = [
    [abc('sha1'), 'sha-1'],
    [abc('sha256'), 'sha-256'],
    [abc('md5'), 'md5'],
    ['00-00-5E-00-53-2A', 'mac-address'],
    ['-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----', 'pem'],
    ['MZXW6YTBOI======', 'base32'],
    ['2001:db8::8a2e:370:7334', 'ipv6'],
    ['2001:db8::/32', 'ipv6-cidr'],
    ['0 23 ? * MON-FRI', 'cron'],
  ];
  for (const [input, kind] of cases) {
    it(`${kind}: named, without steps, with a note`, async () => {
      const candidate = await best(input);
      assert.equal(candidate?.kind, kind);
      assert.deepEqual([candidate?.recipe, candidate?.preview], [{ steps: [] }, null]);
      assert.match(candidate?.note ?? '', /\w/);
      assert.ok(candidate!.confidence > 0.5);
    });
  }

  it('leaves a named kind out when an operation confirmed it: Base64 of text has no "binary data" candidate', async () => {
    const text = Buffer.from('The quick brown fox jumps over the lazy dog, 42 times.').toString('base64');
    const { candidates } = await identify(executor, { input: text });
    assert.deepEqual(candidates.filter((candidate) => candidate.kind === 'base64').map((candidate) => candidate.recipe.steps.length), [1]);
    const bytes = Buffer.from(Array.from({ length: 48 }, (_, index) => (index * 37 + 200) % 256)).toString('base64');
    const binary = await best(bytes);
    assert.deepEqual([binary?.kind, binary?.title, binary?.recipe.steps], ['base64', 'Base64 (binary data)', []]);
  });

  it('takes eight pairs of hex digits between colons for bytes, not an IPv6 address', async () => {
    assert.equal((await best('74:6f:6f:6c:73:68:65:64'))?.kind, 'hex-bytes');
  });
});

describe('identify asks the operation once, and keeps its previews short', () => {
  it('runs data-converter once for every CSV and YAML recognizer that matches, and reads the kind from its answer', async () => {
    executor.runs.length = 0;
    const candidate = await best('id;name\n1;Ada\n2;Grace\n');
    assert.equal(candidate?.kind, 'csv');
    assert.equal(executor.runs.filter((run) => run.operation === 'data-converter/convert').length, 1);
  });

  it('refuses a kind whose answer says otherwise: a header without rows is not CSV, a number dated 2101 is no timestamp', async () => {
    const kinds = async (input: string) => (await identify(executor, { input })).candidates.map((candidate) => candidate.kind);
    assert.ok(!(await kinds('name,qty\n')).includes('csv'));
    assert.ok(!(await kinds('4155552671')).includes('unix-timestamp'));
    assert.ok((await kinds('1700000000')).includes('unix-timestamp'));
  });

  it('cuts a preview to at most 512 bytes of JSON (a long base conversion was 6 KB)', async () => {
    const input = `0x${'f'.repeat(400)}`;
    const candidate = (await identify(executor, { input })).candidates.find((each) => each.kind === 'hex-number');
    assert.ok(candidate !== undefined);
    const bytes = Buffer.byteLength(JSON.stringify(candidate.preview));
    assert.ok(bytes <= PREVIEW_BYTES && bytes > PREVIEW_BYTES - 40, `${bytes} bytes`);
    assert.match(JSON.stringify(candidate.preview), /…/);
  });
});
