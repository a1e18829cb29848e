import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import subnetCalculator from './index.js';
import type { SubnetEntry as Entry } from './subnet.js';

interface Report extends Entry {
  address: string;
  type: string;
  class: string;
  binary: { address: string; netmask: string };
  reverseDns: string;
  split?: { total: number; subnets: Entry[] };
}

async function calc(body: Record<string, unknown>): Promise<Report> {
  return (await invoke(subnetCalculator, 'calculate', body)) as Report;
}

const pick = (report: Entry): Entry => ({
  cidr: report.cidr,
  network: report.network,
  broadcast: report.broadcast,
  netmask: report.netmask,
  wildcard: report.wildcard,
  firstHost: report.firstHost,
  lastHost: report.lastHost,
  total: report.total,
  usable: report.usable,
});

describe('subnet-calculator.calculate', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of subnetCalculator.operations.calculate!.examples) assert.deepEqual(await calc(example.body), example.response);
  });

  it('accepts the netmask form with the same answer as the prefix form, and no split without splitPrefix', async () => {
    const prefixForm = await calc({ address: '192.168.1.10/24' });
    assert.deepEqual(await calc({ address: '192.168.1.10 255.255.255.0' }), prefixForm);
    assert.deepEqual(await calc({ address: '  192.168.1.10 / 24\t' }), prefixForm);
    assert.equal('split' in prefixForm, false);
  });

  it('keeps host bits as `address` and types the address: 172.16.5.4/20 is in 172.16.0.0/20', async () => {
    // Third octet 5 = 00000101; the /20 mask keeps its top four bits (11110000): 0. Broadcast: 0 + 15.
    const report = await calc({ address: '172.16.5.4/20' });
    assert.deepEqual(pick(report), {
      cidr: '172.16.0.0/20',
      network: '172.16.0.0',
      broadcast: '172.16.15.255',
      netmask: '255.255.240.0',
      wildcard: '0.0.15.255',
      firstHost: '172.16.0.1',
      lastHost: '172.16.15.254',
      total: 4096, // 2^12
      usable: 4094,
    });
    assert.equal(report.address, '172.16.5.4');
    assert.equal(report.type, 'private');
    assert.equal(report.class, 'B');
    assert.equal(report.reverseDns, '16.172.in-addr.arpa'); // /20 → the /16 boundary above it
  });

  it('follows RFC 3021 for /31: two addresses, both usable hosts', async () => {
    assert.deepEqual(pick(await calc({ address: '10.0.0.1/31' })), {
      cidr: '10.0.0.0/31',
      network: '10.0.0.0',
      broadcast: '10.0.0.1',
      netmask: '255.255.255.254',
      wildcard: '0.0.0.1',
      firstHost: '10.0.0.0',
      lastHost: '10.0.0.1',
      total: 2,
      usable: 2,
    });
  });

  it('answers a /32 with one usable host and its full PTR name', async () => {
    const report = await calc({ address: '8.8.4.4/32' });
    assert.deepEqual(pick(report), {
      cidr: '8.8.4.4/32',
      network: '8.8.4.4',
      broadcast: '8.8.4.4',
      netmask: '255.255.255.255',
      wildcard: '0.0.0.0',
      firstHost: '8.8.4.4',
      lastHost: '8.8.4.4',
      total: 1,
      usable: 1,
    });
    assert.equal(report.reverseDns, '4.4.8.8.in-addr.arpa');
    assert.equal(report.type, 'public');
  });

  it('answers a /30 with two usable hosts and /0 with 2^32 addresses', async () => {
    assert.deepEqual([(await calc({ address: '10.0.0.5/30' })).total, (await calc({ address: '10.0.0.5/30' })).usable], [4, 2]);
    const everything = await calc({ address: '0.0.0.0/0' });
    assert.deepEqual(pick(everything), {
      cidr: '0.0.0.0/0',
      network: '0.0.0.0',
      broadcast: '255.255.255.255',
      netmask: '0.0.0.0',
      wildcard: '255.255.255.255',
      firstHost: '0.0.0.1',
      lastHost: '255.255.255.254',
      total: 4294967296,
      usable: 4294967294,
    });
    assert.equal(everything.type, 'unspecified');
    assert.equal(everything.reverseDns, 'in-addr.arpa');
    assert.equal(everything.binary.netmask, '00000000.00000000.00000000.00000000');
  });

  it('puts reverseDns on the octet boundary at or above the prefix', async () => {
    const zone = async (address: string) => (await calc({ address })).reverseDns;
    assert.equal(await zone('10.1.2.3/8'), '10.in-addr.arpa');
    assert.equal(await zone('10.1.2.3/7'), 'in-addr.arpa');
    assert.equal(await zone('10.1.2.3/15'), '10.in-addr.arpa');
    assert.equal(await zone('10.1.2.3/16'), '1.10.in-addr.arpa');
    assert.equal(await zone('10.1.2.3/25'), '2.1.10.in-addr.arpa');
    assert.equal(await zone('10.1.2.3/31'), '2.1.10.in-addr.arpa');
  });

  it('types special addresses: loopback, link-local, multicast, shared, broadcast, reserved', async () => {
    const type = async (address: string) => (await calc({ address })).type;
    assert.equal(await type('127.0.0.1/8'), 'loopback');
    assert.equal(await type('169.254.1.1/16'), 'link-local');
    assert.equal(await type('239.1.2.3/8'), 'multicast');
    assert.equal(await type('100.64.0.1/10'), 'shared');
    assert.equal(await type('255.255.255.255/32'), 'broadcast');
    assert.equal(await type('250.0.0.1/8'), 'reserved');
    assert.equal((await calc({ address: '250.0.0.1/8' })).class, 'E');
  });

  it('refuses a non-contiguous netmask with 422 invalid_netmask', async () => {
    await rejectsWith(calc({ address: '10.0.0.0 255.0.255.0' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0 0.0.0.255' }), 422, 'invalid_netmask'); // a wildcard mask
    await rejectsWith(calc({ address: '10.0.0.0 255.255.255.256' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0/33' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0/-1' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0/08' }), 422, 'invalid_netmask');
  });

  it('refuses malformed addresses with 422 invalid_address', async () => {
    for (const address of ['10.0.0.1', '', '256.1.1.1/8', '10.0.0/8', '10.0.0.01/8', '::1/128', '10.0.0.0/8/8', '10.0.0.0 255.255.0.0 x']) {
      await rejectsWith(calc({ address }), 422, 'invalid_address');
    }
  });

  it('splits a /24 into four /26 subnets', async () => {
    const { split } = await calc({ address: '192.168.0.77/24', splitPrefix: 26 });
    assert.equal(split?.total, 4);
    assert.deepEqual(split?.subnets[1], {
      cidr: '192.168.0.64/26',
      network: '192.168.0.64',
      broadcast: '192.168.0.127',
      netmask: '255.255.255.192',
      wildcard: '0.0.0.63',
      firstHost: '192.168.0.65',
      lastHost: '192.168.0.126',
      total: 64,
      usable: 62,
    });
    assert.deepEqual(split?.subnets.map((subnet) => subnet.cidr), ['192.168.0.0/26', '192.168.0.64/26', '192.168.0.128/26', '192.168.0.192/26']);
  });

  it('counts 0.0.0.0/0 split to /32 as 4294967296 subnets and lists the default 64', async () => {
    const { split } = await calc({ address: '0.0.0.0/0', splitPrefix: 32 });
    assert.equal(split?.total, 4294967296);
    assert.equal(split?.subnets.length, 64);
    assert.equal(split?.subnets[63]?.cidr, '0.0.0.63/32');
  });

  it('lists only `limit` subnets (1–256) and the network itself when splitPrefix equals the prefix', async () => {
    const { split } = await calc({ address: '10.0.0.0/8', splitPrefix: 24, limit: 3 });
    assert.equal(split?.total, 65536); // 2^(24 − 8)
    assert.deepEqual(split?.subnets.map((subnet) => subnet.cidr), ['10.0.0.0/24', '10.0.1.0/24', '10.0.2.0/24']);
    assert.equal((await calc({ address: '10.0.0.0/8', splitPrefix: 24, limit: 1 })).split?.subnets.length, 1);
    assert.equal((await calc({ address: '10.0.0.0/8', splitPrefix: 24, limit: 256 })).split?.subnets[255]?.cidr, '10.0.255.0/24');
    const same = await calc({ address: '10.0.0.0/8', splitPrefix: 8 });
    assert.deepEqual(same.split, { total: 1, subnets: [pick(same)] });
    // Fewer subnets than the limit: all of them.
    assert.equal((await calc({ address: '10.0.0.0/30', splitPrefix: 32 })).split?.subnets.length, 4);
  });

  it('refuses splitPrefix below the prefix with 422 invalid_split', async () => {
    await rejectsWith(calc({ address: '10.0.0.0/24', splitPrefix: 23 }), 422, 'invalid_split');
    await rejectsWith(calc({ address: '10.0.0.0/1', splitPrefix: 0 }), 422, 'invalid_split');
  });

  it('checks the bounds: splitPrefix 0–32, limit 1–256, integers, required address', async () => {
    assert.equal((await calc({ address: '0.0.0.0/0', splitPrefix: 0 })).split?.total, 1);
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: -1 }), 400, 'validation_failed', ['/splitPrefix']);
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: 33 }), 400, 'validation_failed', ['/splitPrefix']);
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: 24.5 }), 400, 'validation_failed', ['/splitPrefix']);
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: 24, limit: 0 }), 400, 'validation_failed', ['/limit']);
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: 24, limit: 257 }), 400, 'validation_failed', ['/limit']);
    await rejectsWith(calc({ address: '10.0.0.0/8', limit: '64' }), 400, 'validation_failed', ['/limit']);
    await rejectsWith(calc({}), 400, 'validation_failed', ['/address']);
    await rejectsWith(calc({ address: 167772160 }), 400, 'validation_failed', ['/address']);
    await rejectsWith(calc({ address: '10.0.0.0/8', mask: 8 }), 400, 'validation_failed', ['/mask']);
  });
});

describe('subnet-calculator.calculate: hostile input', () => {
  it('refuses a 10 MB address quickly with 422, without quoting it', async () => {
    const huge = `${'1'.repeat(5_000_000)}.${' '.repeat(5_000_000)}/8`;
    const started = performance.now();
    await assert.rejects(calc({ address: huge }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_address');
      assert.ok(error.message.length < 200);
      return true;
    });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('refuses lone surrogates, full-width digits and control characters', async () => {
    for (const address of ['\uD800.0.0.0/8', '１０.0.0.0/8', '\u000010.0.0.0/8', '10.0.0.0\u00A0/8\uFEFF/']) {
      await rejectsWith(calc({ address }), 422, 'invalid_address');
    }
    await rejectsWith(calc({ address: '10.0.0.0/8\u0000' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0/\uDFFF' }), 422, 'invalid_netmask');
  });

  it('refuses huge numbers in the address and prefix', async () => {
    await rejectsWith(calc({ address: '99999999999999999999.0.0.0/8' }), 422, 'invalid_address');
    await rejectsWith(calc({ address: '10.0.0.0/99999999999999999999' }), 422, 'invalid_netmask');
    await rejectsWith(calc({ address: '10.0.0.0/8', splitPrefix: 1e308 }), 400, 'validation_failed', ['/splitPrefix']);
  });
});
