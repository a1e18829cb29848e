import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { describe, it } from 'node:test';
import { normaliseName, reverseIPv4, reverseIPv6 } from './name.js';

/** Asserts that normalising `input` fails with 422 invalid_domain. */
function rejects(input: string): void {
  assert.throws(() => normaliseName(input), { status: 422, code: 'invalid_domain' }, JSON.stringify(input));
}

const zeros = (count: number): string => '0.'.repeat(count);

describe('reverse names', () => {
  it('reverses the octets of an IPv4 address under in-addr.arpa (RFC 1035 §3.5)', () => {
    assert.equal(reverseIPv4('1.2.3.4'), '4.3.2.1.in-addr.arpa');
    assert.equal(reverseIPv4('192.0.2.10'), '10.2.0.192.in-addr.arpa');
  });

  it('matches the RFC 3596 §2.5 example 4321:0:1:2:3:4:567:89ab', () => {
    assert.equal(reverseIPv6('4321:0:1:2:3:4:567:89ab'), 'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa');
  });

  it('expands "::": 2001:db8::1 is 2001:0db8:0000:0000:0000:0000:0000:0001', () => {
    // Nibbles 2 0 0 1 | 0 d b 8 | 20 zeros (five 0000 groups) | 0 0 0 1; reversed: 1 0 0 0, 20 zeros, 8 b d 0 1 0 0 2.
    assert.equal(reverseIPv6('2001:db8::1'), `1.0.0.0.${zeros(20)}8.b.d.0.1.0.0.2.ip6.arpa`);
    // "::" alone is 32 zero nibbles; "1::" puts the 1 in the first group (nibbles 0 0 0 1, reversed last).
    assert.equal(reverseIPv6('::'), `${zeros(32)}ip6.arpa`);
    assert.equal(reverseIPv6('1::'), `${zeros(28)}1.0.0.0.ip6.arpa`);
  });

  it('reads an embedded IPv4 tail: ::ffff:192.0.2.1 ends in bytes ff ff c0 00 02 01', () => {
    // Nibbles of the last 6 bytes: f f f f c 0 0 0 0 2 0 1; reversed: 1 0 2 0 0 0 0 c f f f f, then 20 zeros.
    assert.equal(reverseIPv6('::ffff:192.0.2.1'), `1.0.2.0.0.0.0.c.f.f.f.f.${zeros(20)}ip6.arpa`);
  });

  it('accepts upper-case hex digits', () => {
    assert.equal(reverseIPv6('2001:DB8::1'), reverseIPv6('2001:db8::1'));
  });
});

describe('normaliseName', () => {
  it('keeps a plain domain, lower-cased, without the trailing dot', () => {
    assert.deepEqual(normaliseName('example.com'), { name: 'example.com', reverse: false });
    assert.deepEqual(normaliseName('WWW.Example.COM.'), { name: 'www.example.com', reverse: false });
    assert.deepEqual(normaliseName('  example.com \n'), { name: 'example.com', reverse: false });
    assert.deepEqual(normaliseName('localhost'), { name: 'localhost', reverse: false });
  });

  it('converts IDNs to punycode (RFC 3492)', () => {
    assert.equal(normaliseName('bücher.example').name, 'xn--bcher-kva.example');
    assert.equal(normaliseName('BÜCHER.example').name, 'xn--bcher-kva.example');
    assert.equal(normaliseName('münchen.de').name, 'xn--mnchen-3ya.de');
    assert.equal(normaliseName('xn--bcher-kva.example').name, 'xn--bcher-kva.example');
  });

  it('allows underscore labels for SRV and TXT names', () => {
    assert.equal(normaliseName('_sip._tcp.example.com').name, '_sip._tcp.example.com');
    assert.equal(normaliseName('_dmarc.example.com').name, '_dmarc.example.com');
  });

  it('takes the host of a URL', () => {
    assert.equal(normaliseName('https://user:pw@WWW.Example.com:8443/a/b?q=1#f').name, 'www.example.com');
    assert.equal(normaliseName('http://bücher.example/').name, 'xn--bcher-kva.example');
    assert.equal(normaliseName('ftp://files.example.org').name, 'files.example.org');
    // A non-special scheme leaves the host percent-encoded; it is decoded before punycoding.
    assert.equal(normaliseName('git+ssh://bücher.example/repo').name, 'xn--bcher-kva.example');
  });

  it('takes the domain of an e-mail address (after the last @)', () => {
    assert.equal(normaliseName('Jane.Doe@Example.com').name, 'example.com');
    assert.equal(normaliseName('"a@b"@mail.example.net').name, 'mail.example.net');
    assert.equal(normaliseName('info@bücher.example').name, 'xn--bcher-kva.example');
  });

  it('turns IP addresses into reverse names, also inside URLs and e-mail domain literals', () => {
    assert.deepEqual(normaliseName('1.2.3.4'), { name: '4.3.2.1.in-addr.arpa', reverse: true });
    assert.deepEqual(normaliseName('http://192.0.2.10:8080/x'), { name: '10.2.0.192.in-addr.arpa', reverse: true });
    assert.deepEqual(normaliseName('postmaster@[192.0.2.10]'), { name: '10.2.0.192.in-addr.arpa', reverse: true });
    const v6 = `1.0.0.0.${zeros(20)}8.b.d.0.1.0.0.2.ip6.arpa`;
    assert.deepEqual(normaliseName('2001:db8::1'), { name: v6, reverse: true });
    assert.deepEqual(normaliseName('[2001:db8::1]'), { name: v6, reverse: true });
    assert.deepEqual(normaliseName('https://[2001:DB8::1]/'), { name: v6, reverse: true });
    assert.deepEqual(normaliseName('postmaster@[IPv6:2001:db8::1]'), { name: v6, reverse: true });
  });

  it('accepts names at the length limits: a 63-character label and 253 characters in all', () => {
    assert.equal(normaliseName(`${'a'.repeat(63)}.com`).name.length, 67);
    // 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    assert.equal(normaliseName(longest).name, longest);
    assert.equal(normaliseName(`${longest}.`).name, longest);
  });

  it('refuses names just past the limits: a 64-character label, 254 characters', () => {
    rejects(`${'a'.repeat(64)}.com`);
    rejects(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`);
  });

  it('refuses what is not a host name', () => {
    for (const input of ['', '   ', '.', '..', 'a..b', '.example.com', 'exa mple.com', 'ex*ample.com', '-a.com', 'a-.com', 'exam!ple.com', 'a/b.com']) {
      rejects(input);
    }
  });

  it('refuses numeric top-level labels, so malformed addresses are not looked up as names', () => {
    for (const input of ['example.123', '1.2.3.4.5', '1.2.3.256', '1.2.3.04', '1.2.3.4.', '0x7f.1']) rejects(input);
  });

  it('refuses URL syntax in a bare domain instead of letting domainToASCII cut or decode it', () => {
    // domainToASCII('a/b.com') is 'a' and domainToASCII('ex%41mple.com') is 'example.com'.
    for (const input of ['ex%41mple.com', 'a/b.com', 'example.com/path', 'a?b.com', 'a#b.com', 'a\\b.com', 'example.com:443', 'a<b>.com', 'a|b.com', 'a^b.com']) {
      rejects(input);
    }
  });

  it('refuses broken URLs, e-mail addresses and address literals', () => {
    for (const input of ['http://', 'http://exa mple.com/', 'mailto://', '@example.com', 'user@', 'user@[1.2.3]', 'user@[example.com]', 'fe80::1%eth0', 'x://%zz/']) {
      rejects(input);
    }
  });

  it('refuses invalid punycode and lone surrogates', () => {
    rejects('xn--zz.example');
    rejects('\uD800.com');
    rejects('a\uDFFFb.example');
    rejects('\u0000.com');
  });

  it('answers a hostile 300-character name quickly', () => {
    const started = performance.now();
    rejects('.'.repeat(300));
    rejects('ü'.repeat(300));
    rejects(`${'a.'.repeat(150)}`.slice(0, 300).replace(/\.$/, '.1'));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
