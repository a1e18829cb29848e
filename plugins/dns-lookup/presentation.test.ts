import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeResponse, type ZoneRecord } from './fake-resolver.js';
import { fqdn, genericData, presentName, quoteBytes } from './escape.js';
import { buildQuery, readAnswer } from './wire.js';

/** The `data` of each record after a round trip through the wire, as a resolver would send them. */
function present(...answers: ZoneRecord[]): string[] {
  const message = encodeResponse(buildQuery('example.com', 'A'), { answers });
  return readAnswer(message, 'example.com', 'A').records.map((record) => record.data);
}

describe('escaping', () => {
  it('quotes character-strings and escapes ", \\ and non-printable bytes as \\DDD (RFC 1035 §5.1)', () => {
    assert.equal(quoteBytes(Buffer.from('v=spf1 -all')), '"v=spf1 -all"');
    assert.equal(quoteBytes(Buffer.from('say "hi" \\o/')), '"say \\"hi\\" \\\\o/"');
    // 0x00 → \000, 0x09 (tab) → \009, 0x7f → \127, ü = C3 BC → \195\188
    assert.equal(quoteBytes(Buffer.from([0x00, 0x09, 0x7f])), '"\\000\\009\\127"');
    assert.equal(quoteBytes(Buffer.from('ü')), '"\\195\\188"');
    assert.equal(quoteBytes(Buffer.alloc(0)), '""');
  });

  it('escapes bytes of names that would break the zone-file syntax', () => {
    assert.equal(presentName('a b.example'), 'a\\032b.example');
    assert.equal(presentName('semi;colon(paren).example'), 'semi\\;colon\\(paren\\).example');
    assert.equal(presentName('tab\there'), 'tab\\009here');
    assert.equal(fqdn('example.com'), 'example.com.');
    assert.equal(fqdn('.'), '.');
  });

  it('writes the RFC 3597 generic form with upper-case hex', () => {
    // RFC 3597 §5 example: "\# 4 0A000001" for 10.0.0.1.
    assert.equal(genericData(Buffer.from([10, 0, 0, 1])), '\\# 4 0A000001');
    assert.equal(genericData(Buffer.alloc(0)), '\\# 0');
  });
});

describe('record data in presentation form', () => {
  it('A and AAAA (AAAA in RFC 5952 compressed form)', () => {
    assert.deepEqual(present({ name: 'example.com', type: 'A', ttl: 1, data: '93.184.216.34' }), ['93.184.216.34']);
    assert.deepEqual(present({ name: 'example.com', type: 'AAAA', ttl: 1, data: '2001:0db8:0000:0000:0000:0000:0000:0001' }), ['2001:db8::1']);
    assert.deepEqual(present({ name: 'example.com', type: 'AAAA', ttl: 1, data: '2001:db8:0:0:1:0:0:1' }), ['2001:db8::1:0:0:1']);
  });

  it('names with their trailing dot: NS, CNAME, PTR, DNAME', () => {
    assert.deepEqual(
      present(
        { name: 'example.com', type: 'NS', ttl: 1, data: 'a.iana-servers.net' },
        { name: 'example.com', type: 'CNAME', ttl: 1, data: 'www.example.net' },
        { name: 'example.com', type: 'PTR', ttl: 1, data: 'host.example.org' },
        { name: 'example.com', type: 'DNAME', ttl: 1, data: 'example.net' },
      ),
      ['a.iana-servers.net.', 'www.example.net.', 'host.example.org.', 'example.net.'],
    );
  });

  it('MX, including the null MX of RFC 7505', () => {
    assert.deepEqual(
      present(
        { name: 'example.com', type: 'MX', ttl: 1, data: { preference: 10, exchange: 'mail.example.com' } },
        { name: 'example.com', type: 'MX', ttl: 1, data: { preference: 0, exchange: '.' } },
      ),
      ['10 mail.example.com.', '0 .'],
    );
  });

  it('TXT: each string quoted, joined by a space', () => {
    assert.deepEqual(
      present(
        { name: 'example.com', type: 'TXT', ttl: 1, data: 'v=spf1 -all' },
        { name: 'example.com', type: 'TXT', ttl: 1, data: ['first part', 'second "part"'] },
        { name: 'example.com', type: 'TXT', ttl: 1, data: [Buffer.from([0x00, 0xff]), Buffer.alloc(0)] },
      ),
      ['"v=spf1 -all"', '"first part" "second \\"part\\""', '"\\000\\255" ""'],
    );
  });

  it('SOA: mname rname serial refresh retry expire minimum', () => {
    const soa = { mname: 'ns.example', rname: 'host.example', serial: 2024010101, refresh: 7200, retry: 3600, expire: 1209600, minimum: 3600 };
    assert.deepEqual(present({ name: 'example.com', type: 'SOA', ttl: 1, data: soa }), ['ns.example. host.example. 2024010101 7200 3600 1209600 3600']);
    // The largest serial (2^32 - 1) stays an exact integer.
    assert.deepEqual(present({ name: 'example.com', type: 'SOA', ttl: 1, data: { ...soa, serial: 4294967295 } }), [
      'ns.example. host.example. 4294967295 7200 3600 1209600 3600',
    ]);
  });

  it('CAA: flags tag "value" (RFC 8659 §4.1.1)', () => {
    assert.deepEqual(
      present(
        { name: 'example.com', type: 'CAA', ttl: 1, data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
        { name: 'example.com', type: 'CAA', ttl: 1, data: { flags: 128, tag: 'iodef', value: 'mailto:"sec"@example.com' } },
      ),
      ['0 issue "letsencrypt.org"', '128 iodef "mailto:\\"sec\\"@example.com"'],
    );
  });

  it('SRV: priority weight port target (RFC 2782)', () => {
    assert.deepEqual(present({ name: 'example.com', type: 'SRV', ttl: 1, data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } }), [
      '10 5 5060 sip.example.com.',
    ]);
  });

  it('DS: key tag, algorithm, digest type, digest in upper-case hex (RFC 4034 §5.3)', () => {
    const digest = Buffer.from('e2d3c916f6deeac73294e8268fb5885044a833fc5459588f4a9184cfc41a5766', 'hex');
    assert.deepEqual(present({ name: 'example.com', type: 'DS', ttl: 1, data: { keyTag: 20326, algorithm: 8, digestType: 2, digest } }), [
      '20326 8 2 E2D3C916F6DEEAC73294E8268FB5885044A833FC5459588F4A9184CFC41A5766',
    ]);
  });

  it('DNSKEY: flags 3 algorithm base64-key (RFC 4034 §2.2)', () => {
    // "hello" in Base64 is aGVsbG8= (RFC 4648 alphabet; 68 65 6C 6C 6F → aGVs bG8=).
    assert.deepEqual(present({ name: 'example.com', type: 'DNSKEY', ttl: 1, data: { flags: 257, algorithm: 13, key: Buffer.from('hello') } }), [
      '257 3 13 aGVsbG8=',
    ]);
  });

  it('HTTPS from raw rdata (type 65, which dns-packet does not decode)', () => {
    // 00 01 priority 1; 00 target "."; key 1 (alpn) length 3: 02 'h2'.
    const rdata = Buffer.from([0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x03, 0x02, 0x68, 0x32]);
    const message = encodeResponse(buildQuery('example.com', 'HTTPS'), { answers: [{ name: 'example.com', typeCode: 65, ttl: 300, rdata }] });
    assert.deepEqual(readAnswer(message, 'example.com', 'HTTPS').records, [{ name: 'example.com', type: 'HTTPS', ttl: 300, data: '1 . alpn="h2"' }]);
  });

  it('types without a form of their own: the generic \\# form and TYPE<n> (RFC 3597)', () => {
    const message = encodeResponse(buildQuery('example.com', 'A'), {
      answers: [
        // HINFO "X" "Y": two character-strings 01 58 01 59.
        { name: 'example.com', type: 'HINFO', ttl: 1, data: { cpu: 'X', os: 'Y' } },
        { name: 'example.com', typeCode: 0x1234, ttl: 7, rdata: Buffer.from([0xde, 0xad]) },
        { name: 'example.com', typeCode: 99, ttl: 7, rdata: Buffer.alloc(0) },
      ],
    });
    assert.deepEqual(readAnswer(message, 'example.com', 'A').records, [
      { name: 'example.com', type: 'HINFO', ttl: 1, data: '\\# 4 01580159' },
      { name: 'example.com', type: 'TYPE4660', ttl: 7, data: '\\# 2 DEAD' },
      { name: 'example.com', type: 'SPF', ttl: 7, data: '\\# 0' },
    ]);
  });

  it('escapes odd owner names and keeps the TTL', () => {
    const message = encodeResponse(buildQuery('example.com', 'A'), { answers: [{ name: 'a b.example.com', type: 'A', ttl: 4294967295, data: '192.0.2.1' }] });
    assert.deepEqual(readAnswer(message, 'example.com', 'A').records, [{ name: 'a\\032b.example.com', type: 'A', ttl: 4294967295, data: '192.0.2.1' }]);
  });
});
