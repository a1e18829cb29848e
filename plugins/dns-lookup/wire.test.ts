import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeResponse } from './fake-resolver.js';
import { buildQuery, rcodeName, readAnswer } from './wire.js';

const upstream = { status: 502, code: 'upstream_error' };

// "example.com" as a wire name: 07 'example' 03 'com' 00.
const exampleCom = [0x07, ...Buffer.from('example'), 0x03, ...Buffer.from('com'), 0x00];

describe('buildQuery', () => {
  it('writes ID 0, RD and AD, one question of class IN (RFC 1035 §4.1, RFC 8484 §4.1)', () => {
    // Flags: RD is bit 8 (0x0100), AD bit 5 (0x0020): 0x0120. QDCOUNT 1, the other counts 0.
    const expected = Buffer.from([0x00, 0x00, 0x01, 0x20, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, ...exampleCom, 0x00, 0x01, 0x00, 0x01]);
    assert.deepEqual(buildQuery('example.com', 'A'), expected);
  });

  it('writes the type numbers dns-packet lacks or spells differently: HTTPS 65, CAA 257, DNSKEY 48', () => {
    const typeOf = (query: Buffer): number => query.readUInt16BE(query.length - 4);
    assert.equal(typeOf(buildQuery('example.com', 'HTTPS')), 65);
    assert.equal(typeOf(buildQuery('example.com', 'CAA')), 257);
    assert.equal(typeOf(buildQuery('example.com', 'DNSKEY')), 48);
    assert.equal(typeOf(buildQuery('example.com', 'DS')), 43);
    assert.equal(typeOf(buildQuery('example.com', 'SRV')), 33);
    // The class stays IN (1) after the type is patched.
    assert.equal(buildQuery('example.com', 'HTTPS').readUInt16BE(buildQuery('example.com', 'HTTPS').length - 2), 1);
  });
});

describe('rcodeName', () => {
  it('names the IANA RCODEs and numbers the unassigned ones', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 9, 11].map(rcodeName), ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'NOTAUTH', 'DSOTYPENI']);
    assert.equal(rcodeName(12), 'RCODE12');
    assert.equal(rcodeName(15), 'RCODE15');
  });
});

describe('readAnswer', () => {
  const query = buildQuery('example.com', 'MX');

  it('reads the RCODE, the AD bit and the answer section', () => {
    const message = encodeResponse(query, {
      ad: true,
      answers: [{ name: 'example.com', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.example.com' } }],
    });
    assert.deepEqual(readAnswer(message, 'example.com', 'MX'), {
      status: 'NOERROR',
      authenticated: true,
      records: [{ name: 'example.com', type: 'MX', ttl: 300, data: '10 mail.example.com.' }],
    });
    assert.deepEqual(readAnswer(encodeResponse(query, { rcode: 3 }), 'example.com', 'MX'), { status: 'NXDOMAIN', authenticated: false, records: [] });
  });

  it('follows compression pointers, as real resolvers write them (RFC 1035 §4.1.4)', () => {
    // Header: ID 0, flags 0x8180 (QR, RD, RA), QDCOUNT 1, ANCOUNT 1. The question name starts at offset 12.
    // Answer: owner = pointer C0 0C; MX; IN; TTL 3600 (00 00 0E 10); RDLENGTH 9:
    // preference 00 0A, then 04 'mail' + pointer C0 0C ("mail.example.com").
    const message = Buffer.from([
      0x00, 0x00, 0x81, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, ...exampleCom, 0x00, 0x0f, 0x00, 0x01,
      0xc0, 0x0c, 0x00, 0x0f, 0x00, 0x01, 0x00, 0x00, 0x0e, 0x10, 0x00, 0x09, 0x00, 0x0a, 0x04, ...Buffer.from('mail'), 0xc0, 0x0c,
    ]);
    assert.deepEqual(readAnswer(message, 'example.com', 'MX').records, [{ name: 'example.com', type: 'MX', ttl: 3600, data: '10 mail.example.com.' }]);
  });

  it('accepts an answer that does not repeat the question, and a question in another letter case', () => {
    const bare = Buffer.from([0x00, 0x00, 0x81, 0x82, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(readAnswer(bare, 'example.com', 'MX'), { status: 'SERVFAIL', authenticated: false, records: [] });
    const upper = encodeResponse(buildQuery('EXAMPLE.com', 'MX'), {});
    assert.equal(readAnswer(upper, 'example.com', 'MX').status, 'NOERROR');
  });

  it('refuses what is not an answer to the question', () => {
    const good = encodeResponse(query, {});
    const cases: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['shorter than a header', good.subarray(0, 11)],
      ['a query (QR clear)', query],
      ['another ID', Buffer.concat([Buffer.from([0x12, 0x34]), good.subarray(2)])],
      ['opcode STATUS (2)', Buffer.concat([good.subarray(0, 2), Buffer.from([0x90, 0x80]), good.subarray(4)])],
      ['a truncated question', good.subarray(0, 20)],
      ['trailing bytes', Buffer.concat([good, Buffer.from([0])])],
      ['another name', encodeResponse(buildQuery('example.org', 'MX'), {})],
      ['another type', encodeResponse(buildQuery('example.com', 'A'), {})],
      ['two questions', Buffer.concat([good.subarray(0, 4), Buffer.from([0, 2]), good.subarray(6), good.subarray(12)])],
      ['text', Buffer.from('<html>hello, this is not DNS</html>')],
    ];
    for (const [label, message] of cases) assert.throws(() => readAnswer(message, 'example.com', 'MX'), upstream, label);
  });

  it('refuses an answer count larger than the records present', () => {
    const good = encodeResponse(query, { answers: [{ name: 'example.com', type: 'A', ttl: 1, data: '192.0.2.1' }] });
    const lying = Buffer.from(good);
    lying.writeUInt16BE(2, 6);
    assert.throws(() => readAnswer(lying, 'example.com', 'MX'), upstream);
  });

  it('refuses a compression loop instead of following it forever', () => {
    // The answer owner is a pointer to itself (offset 29 = 12 + 13 question name + 4).
    const good = encodeResponse(query, {});
    const looping = Buffer.concat([good, Buffer.from([0xc0, 29, 0x00, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0, 4, 192, 0, 2, 1])]);
    looping.writeUInt16BE(1, 6);
    assert.throws(() => readAnswer(looping, 'example.com', 'MX'), upstream);
  });
});
