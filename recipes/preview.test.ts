import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PREVIEW_BYTES, previewOf } from './preview.js';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('previewOf', () => {
  it('keeps a small answer whole', () => {
    const answer = { header: { alg: 'HS256' }, payload: { sub: '42', exp: 1700000000 }, status: 'expired', times: {} };
    assert.deepEqual(previewOf(answer), answer);
  });

  it('cuts any answer to at most PREVIEW_BYTES of JSON, strings ending in "…"', () => {
    const answers = [
      { results: { 2: '1'.repeat(5000), 8: '7'.repeat(2000), 16: 'f'.repeat(1300) } },
      { svg: `<svg>${'<path d="M0 0h1v1H0z"/>'.repeat(400)}</svg>`, payload: 'mailto:a@example.com' },
      Array.from({ length: 100 }, (_, index) => ({ index, name: `item ${index}`, tags: ['a', 'b'] })),
      { text: '😀'.repeat(2000) },
      { deep: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown },
    ];
    for (const answer of answers) {
      const preview = previewOf(answer);
      assert.ok(size(preview) <= PREVIEW_BYTES, `${size(preview)} bytes`);
      assert.ok(size(preview) > 40, JSON.stringify(preview));
    }
    assert.equal((previewOf({ text: 'x'.repeat(600) }) as { text: string }).text, `${'x'.repeat(PREVIEW_BYTES - 14)}…`);
  });

  it('never splits a surrogate pair, and keeps at most 20 items of a list', () => {
    const { text } = previewOf({ text: '😀'.repeat(2000) }) as { text: string };
    assert.match(text, /^(?:😀)+…$/u);
    assert.equal((previewOf(Array.from({ length: 30 }, (_, index) => index)) as unknown[]).length, 20);
  });
});
