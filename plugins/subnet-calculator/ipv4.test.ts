import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressClass, addressType, formatBinary, formatDottedQuad, maskOf, parseDottedQuad, prefixOfMask } from './ipv4.js';

const quad = (text: string): number => {
  const value = parseDottedQuad(text);
  assert.notEqual(value, undefined, text);
  return value!;
};

describe('ipv4 helpers', () => {
  it('parses and formats dotted quads as unsigned 32-bit numbers', () => {
    // 192·2^24 + 168·2^16 + 1·2^8 + 10 = 3221225472 + 11010048 + 256 + 10
    assert.equal(quad('192.168.1.10'), 3232235786);
    assert.equal(quad('255.255.255.255'), 4294967295);
    assert.equal(quad('0.0.0.0'), 0);
    assert.equal(formatDottedQuad(3232235786), '192.168.1.10');
    assert.equal(formatDottedQuad(4294967295), '255.255.255.255');
  });

  it('refuses octets above 255, leading zeros, missing or extra parts, and non-ASCII digits', () => {
    for (const text of ['256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.00', '1..2.3', '1.2.3.4 ', '١.٢.٣.٤', '1.2.3.-4', '0x1.2.3.4']) {
      assert.equal(parseDottedQuad(text), undefined, text);
    }
  });

  it('builds masks without 32-bit shifts: /0 is 0.0.0.0 and /32 is 255.255.255.255', () => {
    assert.equal(formatDottedQuad(maskOf(0)), '0.0.0.0');
    assert.equal(formatDottedQuad(maskOf(1)), '128.0.0.0');
    assert.equal(formatDottedQuad(maskOf(20)), '255.255.240.0');
    assert.equal(formatDottedQuad(maskOf(31)), '255.255.255.254');
    assert.equal(formatDottedQuad(maskOf(32)), '255.255.255.255');
    assert.equal(prefixOfMask(quad('255.255.252.0')), 22);
    assert.equal(prefixOfMask(quad('0.0.0.0')), 0);
    assert.equal(prefixOfMask(quad('255.0.255.0')), undefined);
    assert.equal(prefixOfMask(quad('0.0.0.255')), undefined);
  });

  it('writes dotted binary with eight digits an octet', () => {
    assert.equal(formatBinary(quad('10.0.128.1')), '00001010.00000000.10000000.00000001');
  });

  it('classifies by first octet: A < 128 ≤ B < 192 ≤ C < 224 ≤ D < 240 ≤ E', () => {
    const cases: [string, string][] = [
      ['0.0.0.0', 'A'],
      ['127.255.255.255', 'A'],
      ['128.0.0.0', 'B'],
      ['191.255.255.255', 'B'],
      ['192.0.0.0', 'C'],
      ['223.255.255.255', 'C'],
      ['224.0.0.0', 'D'],
      ['239.255.255.255', 'D'],
      ['240.0.0.0', 'E'],
      ['255.255.255.255', 'E'],
    ];
    for (const [address, expected] of cases) assert.equal(addressClass(quad(address)), expected, address);
  });

  it('types addresses by the IANA special-purpose registry, edges included', () => {
    const cases: [string, string][] = [
      ['0.0.0.0', 'unspecified'],
      ['0.0.0.1', 'reserved'],
      ['0.255.255.255', 'reserved'],
      ['1.0.0.0', 'public'],
      ['9.255.255.255', 'public'],
      ['10.0.0.0', 'private'],
      ['10.255.255.255', 'private'],
      ['11.0.0.0', 'public'],
      ['100.63.255.255', 'public'],
      ['100.64.0.0', 'shared'],
      ['100.127.255.255', 'shared'],
      ['100.128.0.0', 'public'],
      ['127.0.0.1', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['172.15.255.255', 'public'],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.0', 'public'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['192.88.99.1', 'reserved'],
      ['192.168.255.255', 'private'],
      ['198.18.0.1', 'reserved'],
      ['198.19.255.255', 'reserved'],
      ['198.20.0.0', 'public'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.255', 'documentation'],
      ['8.8.8.8', 'public'],
      ['223.255.255.255', 'public'],
      ['224.0.0.1', 'multicast'],
      ['233.252.0.1', 'multicast'], // MCAST-TEST-NET (RFC 5771) stays multicast
      ['239.255.255.255', 'multicast'],
      ['240.0.0.0', 'reserved'],
      ['255.255.255.254', 'reserved'],
      ['255.255.255.255', 'broadcast'],
    ];
    for (const [address, expected] of cases) assert.equal(addressType(quad(address)), expected, address);
  });
});
