import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from '../kernel/host/operation-names.js';
import { nearestPath, notFoundMessages } from '../kernel/http/route-hint.js';

// The operations served, by name (the host's), as the HTTP door gives them to nearestPath.
const paths = ['base64/decode', 'base64/encode', 'hash-generator/hash', 'subnet-calculator/calculate'];

describe('404 hints', () => {
  it('counts edits as Levenshtein does', () => {
    // kitten → sitting: k→s, e→i, +g = 3 (the textbook example).
    assert.equal(editDistance('kitten', 'sitting', 5), 3);
    assert.equal(editDistance('same', 'same', 0), 0);
    // Past the limit the exact figure is not needed, only that it is over.
    assert.equal(editDistance('kitten', 'sitting', 1), 2);
    assert.equal(editDistance('a', 'abcdefgh', 3), 4);
  });

  it('names the operation behind a typo, a missing /v1, a trailing slash or capitals', () => {
    assert.equal(nearestPath('/v1/base64/encod', paths), '/v1/base64/encode');
    assert.equal(nearestPath('/base64/encode', paths), '/v1/base64/encode');
    assert.equal(nearestPath('/v1/base64/encode/', paths), '/v1/base64/encode');
    assert.equal(nearestPath('/V1/Base64/Encode', paths), '/v1/base64/encode');
    assert.equal(nearestPath('//v1//hash-generator/hash', paths), '/v1/hash-generator/hash');
  });

  it('names a known group\'s first operation when only the operation is unknown', () => {
    assert.equal(nearestPath('/v1/subnet-calculator/split-into-many', paths), '/v1/subnet-calculator/calculate');
  });

  it('names the group behind the first words of its name, and its nearest operation (issue 39)', () => {
    const more = [...paths, 'qr-code-generator/create', 'qr-code-generator/text', 'text-converter/case', 'text-diff/diff'];
    assert.equal(nearestPath('/v1/subnet/calculate', more), '/v1/subnet-calculator/calculate');
    assert.equal(nearestPath('/v1/qr-code/create', more), '/v1/qr-code-generator/create');
    assert.equal(nearestPath('/v1/qr-code/txt', more), '/v1/qr-code-generator/text');
    assert.equal(nearestPath('/v1/qr/whatever', more), '/v1/qr-code-generator/create');
    // Two groups start with "text": naming either would be a guess.
    assert.equal(nearestPath('/v1/text/something', more), undefined);
  });

  it('names nothing for a path far from every operation, or too long to compare', () => {
    assert.equal(nearestPath('/', paths), undefined);
    assert.equal(nearestPath('/v1/weather/today', paths), undefined);
    assert.equal(nearestPath(`/v1/base64/encode${'x'.repeat(200)}`, paths), undefined);
  });

  it('always points to the operation list', () => {
    const message = notFoundMessages(paths);
    assert.equal(message('/base64/encode'), 'There is no operation at this path; did you mean POST /v1/base64/encode? Every operation is listed at /v1/openapi.json.');
    assert.equal(message('/'), 'There is no operation at this path. Every operation is listed at /v1/openapi.json.');
  });
});
