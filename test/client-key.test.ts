// The identity anonymous clients are rate-limited under: IPv4 per address, IPv6 per /64.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientKey } from '../kernel/http/rate-limit/client-key.js';

describe('clientKey', () => {
  it('keeps an IPv4 address as it is', () => {
    assert.equal(clientKey('203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('127.0.0.1'), '127.0.0.1');
  });

  it('turns an IPv4-mapped IPv6 address into its IPv4 address, in either notation', () => {
    assert.equal(clientKey('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(clientKey('::FFFF:203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('0:0:0:0:0:ffff:cb00:7109'), '203.0.113.9');
    assert.equal(clientKey('::ffff:cb00:7109'), '203.0.113.9');
  });

  it('counts IPv6 per /64: addresses in one /64 share a key, neighbouring /64s do not', () => {
    const key = clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    assert.equal(key, '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8:1:2::1'), key);
    assert.equal(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), key);
    assert.notEqual(clientKey('2001:db8:1:3::1'), key);
  });

  it('normalises: expands "::", drops leading zeros, lowercases, compresses the longest zero run', () => {
    assert.equal(clientKey('2001:0DB8:0001:0002:0000:0000:0000:0001'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8::/64');
    assert.equal(clientKey('2001:db8::'), '2001:db8::/64');
    assert.equal(clientKey('2001:db8:0:1::5'), '2001:db8:0:1::/64');
    assert.equal(clientKey('2001:0:0:1:2:3:4:5'), '2001:0:0:1::/64');
    assert.equal(clientKey('::1'), '::/64');
    assert.equal(clientKey('::'), '::/64');
    assert.equal(clientKey('fe80::1:2:3:4'), 'fe80::/64');
    assert.equal(clientKey('1:2:3:4:5:6:7:8'), '1:2:3:4::/64');
  });

  it('drops a zone id', () => {
    assert.equal(clientKey('fe80::1%eth0'), 'fe80::/64');
    assert.equal(clientKey('fe80::abcd:1%25'), 'fe80::/64');
    assert.equal(clientKey('fe80:0:0:0:1::%en0'), 'fe80::/64');
  });

  it('reads an embedded IPv4 tail as the last 32 bits', () => {
    assert.equal(clientKey('64:ff9b::192.0.2.33'), '64:ff9b::/64');
    assert.equal(clientKey('2001:db8:1:2:3:4:192.0.2.33'), '2001:db8:1:2::/64');
    assert.equal(clientKey('::192.0.2.33'), '::/64');
  });

  it('returns anything that is not an IP address unchanged', () => {
    for (const text of ['', 'unknown', '1.2.3', '2001:db8:::1', '[::1]']) assert.equal(clientKey(text), text);
  });
});
