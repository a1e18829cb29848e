import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatIPv6, presentSvcb } from './svcb.js';

/** Bytes from a hex dump with spaces, as RFC 9460 Appendix D prints them. */
const hex = (dump: string): Buffer => Buffer.from(dump.replace(/\s+/g, ''), 'hex');

const fooExampleCom = '03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00';
const fooExampleOrg = '03 66 6f 6f 07 65 78 61 6d 70 6c 65 03 6f 72 67 00';

describe('formatIPv6 (RFC 5952)', () => {
  it('drops leading zeros, writes lower case and shortens the longest zero run', () => {
    assert.equal(formatIPv6(hex('20010db8000000000000000000000001')), '2001:db8::1');
    assert.equal(formatIPv6(hex('20010db8000000000001000000000001')), '2001:db8::1:0:0:1'); // first of two equal runs (§4.2.3)
    assert.equal(formatIPv6(hex('20010db8000000010001000100010001')), '2001:db8:0:1:1:1:1:1'); // one 0 group stays (§4.2.2)
    assert.equal(formatIPv6(hex('00000000000000000000000000000000')), '::');
    assert.equal(formatIPv6(hex('00000000000000000000000000000001')), '::1');
    assert.equal(formatIPv6(hex('ABCD0000000000000000000000000000')), 'abcd::');
  });
});

describe('presentSvcb with the RFC 9460 Appendix D vectors', () => {
  it('D.1 AliasMode: 0 foo.example.com.', () => {
    assert.equal(presentSvcb(hex(`00 00 ${fooExampleCom}`)), '0 foo.example.com.');
  });

  it('D.2 ServiceMode, "use the owner name": 1 .', () => {
    assert.equal(presentSvcb(hex('00 01 00')), '1 .');
  });

  it('D.2 a port: 16 foo.example.com. port=53', () => {
    assert.equal(presentSvcb(hex(`00 10 ${fooExampleCom} 00 03 00 02 00 35`)), '16 foo.example.com. port=53');
  });

  it('D.2 an unregistered key: key667="hello", and one with a byte escaped as \\210 (0xd2)', () => {
    assert.equal(presentSvcb(hex(`00 01 ${fooExampleCom} 02 9b 00 05 68 65 6c 6c 6f`)), '1 foo.example.com. key667="hello"');
    assert.equal(presentSvcb(hex(`00 01 ${fooExampleCom} 02 9b 00 09 68 65 6c 6c 6f d2 71 6f 6f`)), '1 foo.example.com. key667="hello\\210qoo"');
  });

  it('D.2 two IPv6 hints, and an IPv4-mapped one (198.51.100.100 = c6 33 64 64)', () => {
    const two = `00 01 ${fooExampleCom} 00 06 00 20 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 20 01 0d b8 00 00 00 00 00 00 00 00 00 53 00 01`;
    assert.equal(presentSvcb(hex(two)), '1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1');
    const mapped = '00 01 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 06 00 10 20 01 0d b8 ff ff ff ff ff ff ff ff c6 33 64 64';
    assert.equal(presentSvcb(hex(mapped)), '1 example.com. ipv6hint=2001:db8:ffff:ffff:ffff:ffff:c633:6464');
  });

  it('D.2 mandatory, alpn and ipv4hint, in wire (sorted) order', () => {
    const vector = `00 10 ${fooExampleOrg} 00 00 00 04 00 01 00 04 00 01 00 09 02 68 32 05 68 33 2d 31 39 00 04 00 04 c0 00 02 01`;
    assert.equal(presentSvcb(hex(vector)), '16 foo.example.org. mandatory=alpn,ipv4hint alpn="h2,h3-19" ipv4hint=192.0.2.1');
  });

  it('D.2 an alpn value holding a backslash and a comma: alpn="f\\\\\\\\oo\\\\,bar,h2"', () => {
    const vector = `00 10 ${fooExampleOrg} 00 01 00 0c 08 66 5c 6f 6f 2c 62 61 72 02 68 32`;
    assert.equal(presentSvcb(hex(vector)), '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"');
  });
});

describe('presentSvcb, the other keys', () => {
  it('no-default-alpn, ech, dohpath and ohttp', () => {
    // key 2 empty; key 5 "hello" → aGVsbG8=; key 7 "/q{?dns}"; key 8 empty.
    const rdata = hex(`00 01 00 00 02 00 00 00 05 00 05 68 65 6c 6c 6f 00 07 00 08 ${Buffer.from('/q{?dns}').toString('hex')} 00 08 00 00`);
    assert.equal(presentSvcb(rdata), '1 . no-default-alpn ech=aGVsbG8= dohpath="/q{?dns}" ohttp');
  });

  it('a Cloudflare-style record: two ALPNs and two IPv4 hints', () => {
    // alpn: 02 'h3' 02 'h2' (6 bytes); ipv4hint 104.16.132.229 = 68 10 84 e5, 104.16.133.229 = 68 10 85 e5.
    const rdata = hex('00 01 00 00 01 00 06 02 68 33 02 68 32 00 04 00 08 68 10 84 e5 68 10 85 e5');
    assert.equal(presentSvcb(rdata), '1 . alpn="h3,h2" ipv4hint=104.16.132.229,104.16.133.229');
  });

  it('escapes a dot inside a target label', () => {
    assert.equal(presentSvcb(hex('00 01 03 61 2e 62 00')), '1 a\\.b.');
  });
});

describe('presentSvcb on malformed data falls back to the generic form', () => {
  const cases: [string, string][] = [
    ['too short', '00 01'],
    ['target runs past the end', '00 01 05 61 62'],
    ['label longer than 63', '00 01 40'],
    ['truncated key header', '00 01 00 00 01 00'],
    ['value past the end', '00 01 00 00 03 00 05 00 35'],
    ['keys out of order', '00 01 00 00 03 00 02 00 35 00 01 00 03 02 68 32'],
    ['a key twice', '00 01 00 00 03 00 02 00 35 00 03 00 02 00 35'],
    ['port of 3 bytes', '00 01 00 00 03 00 03 00 00 35'],
    ['ipv4hint of 5 bytes', '00 01 00 00 04 00 05 01 02 03 04 05'],
    ['empty ipv6hint', '00 01 00 00 06 00 00'],
    ['alpn with an empty id', '00 01 00 00 01 00 01 00'],
    ['alpn id past the value', '00 01 00 00 01 00 02 05 68'],
    ['empty alpn', '00 01 00 00 01 00 00'],
    ['no-default-alpn with a value', '00 01 00 00 02 00 01 00'],
    ['mandatory of odd length', '00 01 00 00 00 00 03 00 01 00'],
  ];
  for (const [label, dump] of cases) {
    it(label, () => {
      const bytes = hex(dump);
      assert.equal(presentSvcb(bytes), `\\# ${bytes.length} ${bytes.toString('hex').toUpperCase()}`);
    });
  }
});
