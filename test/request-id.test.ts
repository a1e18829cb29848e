// Request ids are ULIDs (github.com/ulid/spec): 26 characters of Crockford's base32, the first ten the
// millisecond time. Checked against the ulid package's own decoder and a hand-worked time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeTime } from 'ulid';
import { newRequestId } from '../kernel/http/middleware/request-id.js';

describe('request ids', () => {
  it('encode the time as ulid does: the spec\'s example time and now', () => {
    // The spec's example ULID, 01ARZ3NDEKTSV4RRFFQ69G5FAV, has the time 1469922850259 ms.
    assert.equal(newRequestId(1469922850259).slice(0, 10), '01ARZ3NDEK');
    const now = Date.now();
    assert.equal(decodeTime(newRequestId(now)), now);
  });

  it('are 26 base32 characters, different each time within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId(1469922850259));
    for (const id of ids) assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(new Set(ids).size, 1000);
  });

  it('use every character of the alphabet in the random part, about evenly', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 2000; index++) for (const character of newRequestId(0).slice(10)) counts.set(character, (counts.get(character) ?? 0) + 1);
    assert.equal(counts.size, 32);
    // 32,000 characters: 1,000 expected each; a fair source stays well within ±30 %.
    for (const count of counts.values()) assert.ok(count > 700 && count < 1300, String(count));
  });
});
