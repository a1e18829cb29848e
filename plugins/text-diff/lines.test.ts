import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import textDiff from './index.js';
import { WorkBudget } from './align.js';
import { diffLines, MAX_ROWS } from './lines.js';
import { PartBudget } from './parts.js';

type Side = { no: number; text: string; parts?: { type: string; value: string }[] };
type Row = { type: string; left?: Side; right?: Side };
type Lines = { identical: boolean; added: number; removed: number; rows: Row[] };

const lines = async (body: Record<string, unknown>): Promise<Lines> => (await invoke(textDiff, 'lines', body)) as Lines;
const same = (l: number, r: number, left: string, right = left): Row => ({ type: 'same', left: { no: l, text: left }, right: { no: r, text: right } });
const plain = { ignoreCase: false, ignoreWhitespace: false };

/** A linear congruential generator: deterministic "random" numbers below 2^31. */
function generator(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648);
}

/** `count` lines of 8 base-36 words each; each line starts with "L<seed>", so two seeds share no line. */
function randomLines(seed: number, count: number): string {
  const next = generator(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push([`L${seed}`, ...Array.from({ length: 8 }, () => next().toString(36))].join(' '));
  return out.join('\n');
}

/** `count` lines drawn from 16 fixed lines of 50 characters: many matches, scattered everywhere. */
function shuffledLines(seed: number, count: number): string {
  const next = generator(seed);
  const pool = Array.from({ length: 16 }, (_, i) => `line ${String(i).padStart(2, '0')} `.padEnd(50, String.fromCharCode(97 + i)));
  return Array.from({ length: count }, () => pool[next() % 16]).join('\n');
}

describe('text-diff.lines', () => {
  it('answers its example: a mod row with word parts on both sides, a same row, an add row', async () => {
    const example = textDiff.operations.lines!.examples[0]!;
    assert.deepEqual(await invoke(textDiff, 'lines', example.body), example.response);
  });

  it('reports identical texts as same rows, each side with its own line number', async () => {
    assert.deepEqual(await lines({ original: 'a\nb', changed: 'a\nb' }), { identical: true, added: 0, removed: 0, rows: [same(1, 1, 'a'), same(2, 2, 'b')] });
    assert.deepEqual(await lines({ original: '', changed: '' }), { identical: true, added: 0, removed: 0, rows: [] });
  });

  it('has add rows (right only) and del rows (left only)', async () => {
    assert.deepEqual(await lines({ original: '', changed: 'a\nb' }), {
      identical: false, added: 2, removed: 0,
      rows: [{ type: 'add', right: { no: 1, text: 'a' } }, { type: 'add', right: { no: 2, text: 'b' } }],
    });
    assert.deepEqual(await lines({ original: 'a\nb\nc', changed: 'a' }), {
      identical: false, added: 0, removed: 2,
      rows: [same(1, 1, 'a'), { type: 'del', left: { no: 2, text: 'b' } }, { type: 'del', left: { no: 3, text: 'c' } }],
    });
  });

  it('pairs the n-th removed with the n-th added line of a block; the rest stay del or add', async () => {
    // Only a and b are common (x y z p q all differ): block x y z / p q → mod x/p, mod y/q, del z.
    const result = await lines({ original: 'a\nx\ny\nz\nb', changed: 'a\np\nq\nb' });
    assert.deepEqual(result.rows.map((row) => [row.type, row.left?.no, row.right?.no]), [
      ['same', 1, 1], ['mod', 2, 2], ['mod', 3, 3], ['del', 4, undefined], ['same', 5, 4],
    ]);
    assert.deepEqual([result.added, result.removed, result.identical], [2, 3, false]); // added = 2 mod; removed = 2 mod + 1 del
    const reverse = await lines({ original: 'a\np\nq\nb', changed: 'a\nx\ny\nz\nb' });
    assert.deepEqual(reverse.rows.map((row) => [row.type, row.left?.no, row.right?.no]), [
      ['same', 1, 1], ['mod', 2, 2], ['mod', 3, 3], ['add', undefined, 4], ['same', 4, 5],
    ]);
    assert.deepEqual([reverse.added, reverse.removed], [3, 2]);
  });

  it('gives each side of a mod row its own parts, which concatenate to that side\'s line', async () => {
    // Tokens a ␣ b ␣ c / a ␣ x ␣ c ␣ d: the longest common run is "a ␣ … ␣ c" (4 tokens),
    // so b is removed, x and " d" added.
    const result = await lines({ original: 'a b c', changed: 'a x c d' });
    assert.deepEqual(result.rows, [{
      type: 'mod',
      left: { no: 1, text: 'a b c', parts: [{ type: 'same', value: 'a ' }, { type: 'del', value: 'b' }, { type: 'same', value: ' c' }] },
      right: { no: 1, text: 'a x c d', parts: [{ type: 'same', value: 'a ' }, { type: 'add', value: 'x' }, { type: 'same', value: ' c' }, { type: 'add', value: ' d' }] },
    }]);
  });

  it('treats \\r\\n and \\n alike and keeps the final empty line after a trailing newline', async () => {
    assert.deepEqual(await lines({ original: 'a\r\nb', changed: 'a\nb' }), { identical: true, added: 0, removed: 0, rows: [same(1, 1, 'a'), same(2, 2, 'b')] });
    assert.deepEqual(await lines({ original: 'a', changed: 'a\n' }), {
      identical: false, added: 1, removed: 0, rows: [same(1, 1, 'a'), { type: 'add', right: { no: 2, text: '' } }],
    });
  });

  it('ignoreCase: lines equal up to case are same rows showing each side\'s own text', async () => {
    assert.deepEqual(await lines({ original: 'Hello World', changed: 'hello world', ignoreCase: true }), {
      identical: true, added: 0, removed: 0, rows: [same(1, 1, 'Hello World', 'hello world')],
    });
    assert.equal((await lines({ original: 'ΟΔΟΣ', changed: 'οδοσ', ignoreCase: true })).identical, true);
    assert.equal((await lines({ original: 'Hello', changed: 'hello' })).identical, false); // the default compares case
    const mod = await lines({ original: 'Hello World foo', changed: 'hello world bar', ignoreCase: true });
    assert.deepEqual(mod.rows[0]!.left!.parts, [{ type: 'same', value: 'Hello World ' }, { type: 'del', value: 'foo' }]);
    assert.deepEqual(mod.rows[0]!.right!.parts, [{ type: 'same', value: 'hello world ' }, { type: 'add', value: 'bar' }]);
  });

  it('ignoreWhitespace: all whitespace inside lines is ignored, line breaks are not', async () => {
    assert.equal((await lines({ original: 'a  b\t c ', changed: ' ab c', ignoreWhitespace: true })).identical, true); // both "abc"
    assert.equal((await lines({ original: 'a b', changed: 'ab' })).identical, false);
    const blank = await lines({ original: 'a\nb', changed: 'a\n \nb', ignoreWhitespace: true });
    assert.deepEqual(blank.rows.map((row) => row.type), ['same', 'add', 'same']);
    // x ␣ = ␣ 1 / x = 2: compared tokens x = 1 / x = 2; the spaces count as same on their side.
    const mod = await lines({ original: 'x = 1', changed: 'x=2', ignoreWhitespace: true });
    assert.deepEqual(mod.rows[0]!.left!.parts, [{ type: 'same', value: 'x = ' }, { type: 'del', value: '1' }]);
    assert.deepEqual(mod.rows[0]!.right!.parts, [{ type: 'same', value: 'x=' }, { type: 'add', value: '2' }]);
  });

  it('refuses more lines than rows it may answer (output_too_large), counting before any work', async () => {
    const limit = 'a\n'.repeat(MAX_ROWS - 1) + 'a'; // exactly MAX_ROWS lines
    const started = performance.now();
    const result = await lines({ original: limit, changed: limit });
    assert.equal(result.rows.length, MAX_ROWS);
    await assert.rejects(lines({ original: `${limit}\n`, changed: 'a' }), { status: 422, code: 'output_too_large' });
    await assert.rejects(lines({ original: '\n'.repeat(5_000_000), changed: '' }), { status: 422, code: 'output_too_large' });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('stops at the row limit while building rows, and at the part limit', () => {
    // a b / b c: del a, same b, add c are 3 rows.
    assert.equal(diffLines('a\nb', 'b\nc', plain, new WorkBudget(), new PartBudget(), 3).rows.length, 3);
    assert.throws(() => diffLines('a\nb', 'b\nc', plain, new WorkBudget(), new PartBudget(), 2), { status: 422, code: 'output_too_large' });
    // One mod row with parts same/del/same and same/add/same: 6 parts.
    assert.equal(diffLines('a b c', 'a x c', plain, new WorkBudget(), new PartBudget(6)).rows.length, 1);
    assert.throws(() => diffLines('a b c', 'a x c', plain, new WorkBudget(), new PartBudget(5)), { status: 422, code: 'output_too_large' });
  });

  it('hostile: two different 2 MB texts answer 422 diff_too_complex without stalling (the diff gives up at 0.8 s)', async () => {
    // 41,000 lines of 51 characters (with the newline) are 2.09 MB per side.
    const many = { original: shuffledLines(1, 41_000), changed: shuffledLines(2, 41_000) };
    const single = { original: randomLines(1, 40_000).replace(/\n/g, ' '), changed: randomLines(2, 40_000).replace(/\n/g, ' ') };
    for (const body of [many, single]) {
      assert.ok(body.original.length > 2_000_000 && body.changed.length > 2_000_000);
      const started = performance.now();
      await assert.rejects(lines(body), { status: 422, code: 'diff_too_complex' });
      const elapsed = performance.now() - started;
      assert.ok(elapsed < HANG_GUARD_MS, `${Math.round(elapsed)} ms`);
    }
  });

  it('hostile: texts without a single common line are cheap, every line a mod row', async () => {
    const started = performance.now();
    // Without a common key, nothing is left for the quadratic diff: all 10,000 lines pair into mod rows.
    const result = await lines({ original: randomLines(1, 10_000), changed: randomLines(2, 10_000) });
    assert.deepEqual([result.rows.length, result.added, result.removed], [10_000, 10_000, 10_000]);
    assert.ok(result.rows.every((row, i) => row.type === 'mod' && row.left!.no === i + 1 && row.right!.no === i + 1));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('hostile: lone surrogates, a huge single line, NUL and emoji', async () => {
    const surrogates = await lines({ original: 'x\ud800', changed: 'x\udc00' });
    assert.deepEqual(surrogates.rows[0]!.left!.parts, [{ type: 'same', value: 'x' }, { type: 'del', value: '\ud800' }]);
    assert.deepEqual(surrogates.rows[0]!.right!.parts, [{ type: 'same', value: 'x' }, { type: 'add', value: '\udc00' }]);
    const big = 'y'.repeat(4_000_000);
    const started = performance.now();
    const identical = await lines({ original: big, changed: big });
    assert.equal(identical.identical, true);
    assert.equal(identical.rows.length, 1);
    const edited = await lines({ original: `${big} a`, changed: `${big} b` });
    const right = edited.rows[0]!.right!.parts!;
    assert.deepEqual(right.map((part) => [part.type, part.value.length]), [['same', 4_000_001], ['add', 1]]);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    assert.equal((await lines({ original: '\u0000👍🏽', changed: '\u0000👍🏽' })).identical, true);
  });

  it('validates the body: both texts required, booleans only, no unknown fields', async () => {
    await rejectsField(invoke(textDiff, 'lines', { changed: 'a' }), '/original');
    await rejectsField(invoke(textDiff, 'lines', { original: 'a' }), '/changed');
    await rejectsField(invoke(textDiff, 'lines', { original: 'a', changed: 1 }), '/changed');
    await rejectsField(invoke(textDiff, 'lines', { original: 'a', changed: 'b', ignoreCase: 'true' }), '/ignoreCase');
    await rejectsField(invoke(textDiff, 'lines', { original: 'a', changed: 'b', ignoreWhitespace: 1 }), '/ignoreWhitespace');
    await rejectsField(invoke(textDiff, 'lines', { original: 'a', changed: 'b', granularity: 'words' }), '/granularity');
  });
});
