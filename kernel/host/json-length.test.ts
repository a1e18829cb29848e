import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonByteLength, jsonBytesOver } from './json-length.js';

/** A seeded generator (a linear congruential one): the same values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Code units JSON writes in every way: plain, escaped short and long, 2 and 3 UTF-8 bytes, pairs and lone surrogates. */
const UNITS = ['a', ' ', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u001f', '\u007f', 'é', 'ߺ', '€', '\uffff', '😀', '\ud800', '\udfff', '\udc00\ud800'];

function valueOf(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  const length = Math.floor(next() * 6);
  const text = (): string => Array.from({ length: Math.floor(next() * 12) }, () => UNITS[Math.floor(next() * UNITS.length)]).join('');
  switch (pick) {
    case 0:
      return text();
    case 1:
      return [0, -0, 1, -17, 0.1, 1e21, -2.5e-7, 123456789012, Number.MAX_VALUE, Number.MIN_VALUE][Math.floor(next() * 10)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.floor(next() * 1e6);
    case 5:
      return Array.from({ length }, () => valueOf(next, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length }, () => [text(), valueOf(next, depth + 1)]));
  }
}

describe('jsonBytesOver', () => {
  it('says whether the UTF-8 bytes of JSON.stringify pass the bound, at the exact length and around it', () => {
    const next = random(44);
    for (let round = 0; round < 2000; round++) {
      const value = valueOf(next, 0);
      const length = Buffer.byteLength(JSON.stringify(value));
      assert.equal(jsonBytesOver(value, length), false, JSON.stringify(value));
      assert.equal(jsonBytesOver(value, length - 1), true, JSON.stringify(value));
      const bound = Math.floor(next() * length * 2);
      assert.equal(jsonBytesOver(value, bound), length > bound, JSON.stringify(value));
    }
  });

  it('is true for a long string, a long array and an object of many keys, and exact for empty ones', () => {
    assert.equal(jsonBytesOver({ text: 'a'.repeat(10 * 1024 * 1024) }, 1024), true);
    assert.equal(jsonBytesOver(new Array(1_000_000).fill(0), 1024), true);
    assert.equal(jsonBytesOver(Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, 0])), 1024), true);
    assert.equal(jsonBytesOver({}, 2), false);
    assert.equal(jsonBytesOver([], 1), true);
  });
});

describe('jsonByteLength', () => {
  it('counts the UTF-8 bytes of JSON.stringify exactly, without a bound', () => {
    const next = random(45);
    for (let round = 0; round < 2000; round++) {
      const value = valueOf(next, 0);
      assert.equal(jsonByteLength(value), Buffer.byteLength(JSON.stringify(value)), JSON.stringify(value));
    }
  });

  it('leaves out the members JSON.stringify leaves out, and writes them as null in an array', () => {
    const value = { a: undefined, b: 1, c: () => 1, d: Symbol('x'), e: [undefined, () => 1, 2] };
    // {"b":1,"e":[null,null,2]}
    assert.equal(JSON.stringify(value), '{"b":1,"e":[null,null,2]}');
    assert.equal(jsonByteLength(value), 25);
    assert.equal(jsonByteLength({ only: undefined }), 2);
  });
});
