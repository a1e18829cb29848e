// server.trustProxy as a list of trusted proxies (issue 47): what an entry may be, checked when the
// configuration loads, and how the client's address is found behind them. Over real HTTP, from a
// listed proxy and from a client that is not one: test/auth-and-limits.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddressRange } from '../kernel/host/address-ranges.js';
import { checkCoreConfig } from '../kernel/host/config.js';
import { clientAddress, trustedProxies } from '../kernel/http/client-address.js';

describe('a trusted proxy entry', () => {
  it('is an IPv4 or IPv6 address, or a CIDR range of either', () => {
    assert.deepEqual(parseAddressRange('10.0.0.5'), { address: '10.0.0.5', prefix: 32, family: 'ipv4' });
    assert.deepEqual(parseAddressRange('10.0.0.0/8'), { address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    assert.deepEqual(parseAddressRange('fd00::/8'), { address: 'fd00::', prefix: 8, family: 'ipv6' });
    assert.deepEqual(parseAddressRange('::1'), { address: '::1', prefix: 128, family: 'ipv6' });
    assert.deepEqual(parseAddressRange('::ffff:192.0.2.0/120'), { address: '::ffff:192.0.2.0', prefix: 120, family: 'ipv6' });
  });

  it('is refused at configuration load when it is no address, has a bad prefix, or trusts everyone', () => {
    const { problems } = checkCoreConfig({ server: { trustProxy: ['nginx', '10.0.0.256', '1::2::3', 'fe80::1%eth0', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/', '0.0.0.0/0', '::/0', '10.0.0.0/8'] } });
    const address = 'must be an IP address or a CIDR range, such as 10.0.0.5, 10.0.0.0/8 or fd00::/8';
    const everyone = 'trusts every address, so any client could choose the address it is counted under; list your proxies';
    assert.deepEqual(problems, [
      { path: '/server/trustProxy/0', message: address },
      { path: '/server/trustProxy/1', message: address },
      { path: '/server/trustProxy/2', message: address },
      { path: '/server/trustProxy/3', message: address },
      { path: '/server/trustProxy/4', message: 'must have a prefix length from 1 to 32 after the "/"' },
      { path: '/server/trustProxy/5', message: 'must have a prefix length from 1 to 128 after the "/"' },
      { path: '/server/trustProxy/6', message: 'must have a prefix length from 1 to 32 after the "/"' },
      { path: '/server/trustProxy/7', message: everyone },
      { path: '/server/trustProxy/8', message: everyone },
    ]);
  });

  it('comes in a list; a hop count stays a number, and a lone address is told the two forms', () => {
    assert.deepEqual(checkCoreConfig({ server: { trustProxy: 2 } }).problems, []);
    assert.deepEqual(checkCoreConfig({ server: { trustProxy: [] } }).problems, [{ path: '/server/trustProxy', message: 'must not have fewer than 1 items' }]);
    assert.deepEqual(checkCoreConfig({ server: { trustProxy: '10.0.0.5' } }).problems, [
      { path: '/server/trustProxy', message: 'must be a number of proxy hops (0 to 32) or a list of proxy addresses and CIDR ranges, such as [10.0.0.5, fd00::/8]' },
    ]);
  });
});

describe('the client address behind trusted proxies', () => {
  const trusted = trustedProxies(['10.0.0.0/8', '2001:db8::/32', '192.0.2.1']);

  it('matches addresses and ranges, IPv4 ranges also in the IPv4-mapped form of a dual-stack socket', () => {
    assert.deepEqual(['10.255.0.1', '192.0.2.1', '2001:db8:ffff::1', '::ffff:10.1.2.3'].map(trusted), [true, true, true, true]);
    assert.deepEqual(['11.0.0.1', '192.0.2.2', '2001:db9::1', '::ffff:11.0.0.1', 'unknown', ''].map(trusted), [false, false, false, false, false, false]);
  });

  it('is the peer unless the peer is a proxy; then the first entry from the right that is not one', () => {
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', trusted), '203.0.113.9');
    assert.equal(clientAddress('10.0.0.1', undefined, trusted), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1, 203.0.113.9', trusted), '203.0.113.9');
    assert.equal(clientAddress('::ffff:10.0.0.1', '198.51.100.1,203.0.113.9 , 10.2.2.2,2001:db8::7', trusted), '203.0.113.9');
    assert.equal(clientAddress('10.0.0.1', '10.0.0.3, 10.0.0.2', trusted), '10.0.0.3');
    // What a proxy wrote is taken as it is, even when it is no address (as a hop count would).
    assert.equal(clientAddress('10.0.0.1', 'unknown', trusted), 'unknown');
  });
});
