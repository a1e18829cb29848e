import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { invoke, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { startResolver, zoneAnswering, type FakeResolver, type Zone } from './fake-resolver.js';
import dnsLookup from './index.js';

interface Result {
  type: string;
  status: string;
  authenticated: boolean;
  records: { name: string; type: string; ttl: number; data: string }[];
}
interface Response {
  name: string;
  results: Result[];
}

// Type numbers (IANA): A 1, NS 2, CNAME 5, SOA 6, PTR 12, MX 15, TXT 16, AAAA 28, SRV 33, HTTPS 65, CAA 257.
const soa = { mname: 'ns.example', rname: 'host.example', serial: 2024010101, refresh: 7200, retry: 3600, expire: 1209600, minimum: 3600 };
const zone: Zone = {
  'example.com/1': { ad: true, answers: [{ name: 'example.com', type: 'A', ttl: 300, data: '93.184.216.34' }] },
  'example.com/28': { ad: true, answers: [{ name: 'example.com', type: 'AAAA', ttl: 300, data: '2001:db8:0:0:0:0:0:1' }] },
  'example.com/15': { ad: true, answers: [{ name: 'example.com', type: 'MX', ttl: 3600, data: { preference: 10, exchange: 'mail.example.com' } }] },
  'example.com/2': { ad: true, answers: [{ name: 'example.com', type: 'NS', ttl: 86400, data: 'a.iana-servers.net' }] },
  'example.com/16': { ad: true, answers: [{ name: 'example.com', type: 'TXT', ttl: 60, data: ['v=spf1 -all'] }] },
  'example.com/6': { ad: true, answers: [{ name: 'example.com', type: 'SOA', ttl: 3600, data: soa }] },
  'example.com/257': { ad: true, answers: [{ name: 'example.com', type: 'CAA', ttl: 60, data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }] },
  'example.com/65': { ad: true, answers: [{ name: 'example.com', typeCode: 65, ttl: 60, rdata: Buffer.from([0, 1, 0, 0, 1, 0, 6, 2, 0x68, 0x33, 2, 0x68, 0x32]) }] },
  '_sip._tcp.example.com/33': {
    answers: [{ name: '_sip._tcp.example.com', type: 'SRV', ttl: 60, data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } }],
  },
  'xn--bcher-kva.example/1': { answers: [{ name: 'xn--bcher-kva.example', type: 'A', ttl: 5, data: '192.0.2.7' }] },
  '4.3.2.1.in-addr.arpa/12': { answers: [{ name: '4.3.2.1.in-addr.arpa', type: 'PTR', ttl: 600, data: 'host.example.net' }] },
  'broken.example/1': { rcode: 2 },
  'refused.example/1': { rcode: 5 },
};

let primary: FakeResolver;
let secondary: FakeResolver;
// A generous upstream timeout: no test here is about one (upstream.test.ts is), and a first fetch
// on a busy machine, loading undici and connecting, could take a second.
const config = (): object => ({ resolvers: { cloudflare: primary.url, google: secondary.url }, timeoutMs: 30_000 });
const lookup = async (body: unknown): Promise<Response> => (await invoke(dnsLookup, 'lookup', body, { config: config() })) as Response;
const rejectsWith = (body: unknown, status: number, code: string): Promise<void> =>
  assert.rejects(invoke(dnsLookup, 'lookup', body, { config: config() }), { status, code });
const rejectsAt = (body: unknown, path: string): Promise<void> =>
  assert.rejects(invoke(dnsLookup, 'lookup', body, { config: config() }), (error: { status?: number; code?: string; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.equal(error.code, 'validation_failed');
    assert.ok(error.details?.some((detail) => detail.path === path), `no detail at ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });

before(async () => {
  primary = await startResolver(zone);
  secondary = await startResolver({ 'example.com/1': { answers: [{ name: 'example.com', type: 'A', ttl: 1, data: '198.51.100.1' }] } });
});
after(async () => {
  await primary.close();
  await secondary.close();
});
beforeEach(() => {
  primary.queries.length = 0;
  secondary.queries.length = 0;
  primary.behave(undefined);
});

describe('dns-lookup.lookup: the exchange', () => {
  it('sends GET <url>?dns=<base64url without padding> with Accept: application/dns-message', async () => {
    await lookup({ name: 'example.com', types: ['A'] });
    assert.equal(primary.queries.length, 1);
    const [query] = primary.queries;
    assert.equal(query.method, 'GET');
    assert.equal(query.path, '/dns-query');
    assert.equal(query.accept, 'application/dns-message');
    // 12 header + 13 name + 4 type/class = 29 bytes = 9 groups of 3 + 2 bytes: 36 + 3 = 39 characters,
    // where standard Base64 would add one "=".
    assert.equal(query.wire.length, 29);
    assert.match(query.param, /^[A-Za-z0-9_-]{39}$/);
  });

  it('sets RD and AD, clears QR, uses ID 0 and asks for each requested type once', async () => {
    await lookup({ name: 'example.com', types: ['CAA', 'HTTPS', 'DS'] });
    assert.equal(primary.queries.length, 3);
    for (const query of primary.queries) {
      assert.equal(query.id, 0);
      assert.equal(query.flags & 0x8000, 0, 'QR');
      assert.equal(query.flags & 0x7800, 0, 'opcode QUERY');
      assert.equal(query.flags & 0x0100, 0x0100, 'RD');
      assert.equal(query.flags & 0x0020, 0x0020, 'AD');
      assert.equal(query.name, 'example.com');
    }
    assert.deepEqual(primary.queries.map((query) => query.type).sort((a, b) => a - b), [43, 65, 257]);
  });

  it('sends the queries in parallel: the server answers only once all eight default types have arrived', async () => {
    const held: (() => void)[] = [];
    primary.behave((_query, _response, answer) => {
      held.push(answer);
      if (held.length === 8) held.forEach((release) => release());
    });
    const response = await lookup({ name: 'example.com' });
    assert.equal(primary.queries.length, 8);
    assert.deepEqual(
      response.results.map((result) => result.type),
      ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA'],
    );
  });

  it('keeps request order when the answers arrive in reverse order', async () => {
    primary.behave((query, _response, answer) => {
      setTimeout(answer, query.type === 1 ? 80 : query.type === 15 ? 40 : 0);
    });
    const response = await lookup({ name: 'example.com', types: ['A', 'MX', 'TXT'] });
    assert.deepEqual(
      response.results.map((result) => [result.type, result.records[0].data]),
      [
        ['A', '93.184.216.34'],
        ['MX', '10 mail.example.com.'],
        ['TXT', '"v=spf1 -all"'],
      ],
    );
  });

  it('asks the cloudflare resolver by default and the google one when told', async () => {
    assert.equal((await lookup({ name: 'example.com', types: ['A'] })).results[0].records[0].data, '93.184.216.34');
    assert.equal(primary.queries.length, 1);
    assert.equal(secondary.queries.length, 0);
    assert.equal((await lookup({ name: 'example.com', types: ['A'], resolver: 'google' })).results[0].records[0].data, '198.51.100.1');
    assert.equal(primary.queries.length, 1);
    assert.equal(secondary.queries.length, 1);
  });
});

describe('dns-lookup.lookup: the answers', () => {
  it('gives every default type with its presentation form, status and AD flag', async () => {
    const response = await lookup({ name: 'example.com' });
    assert.equal(response.name, 'example.com');
    const one = (data: string, type: string, ttl: number): Result => ({
      type,
      status: 'NOERROR',
      authenticated: true,
      records: [{ name: 'example.com', type, ttl, data }],
    });
    assert.deepEqual(response.results, [
      one('93.184.216.34', 'A', 300),
      one('2001:db8::1', 'AAAA', 300),
      // The zone has no CNAME for example.com: NOERROR without records, and no AD flag from this server.
      { type: 'CNAME', status: 'NOERROR', authenticated: false, records: [] },
      one('10 mail.example.com.', 'MX', 3600),
      one('a.iana-servers.net.', 'NS', 86400),
      one('"v=spf1 -all"', 'TXT', 60),
      one('ns.example. host.example. 2024010101 7200 3600 1209600 3600', 'SOA', 3600),
      one('0 issue "letsencrypt.org"', 'CAA', 60),
    ]);
  });

  it('gives SRV and HTTPS records', async () => {
    const srv = await lookup({ name: '_sip._tcp.example.com', types: ['SRV'] });
    assert.deepEqual(srv.results[0].records, [{ name: '_sip._tcp.example.com', type: 'SRV', ttl: 60, data: '10 5 5060 sip.example.com.' }]);
    const https = await lookup({ name: 'example.com', types: ['HTTPS'] });
    assert.deepEqual(https.results[0].records, [{ name: 'example.com', type: 'HTTPS', ttl: 60, data: '1 . alpn="h3,h2"' }]);
  });

  it('reports NXDOMAIN, SERVFAIL and REFUSED as statuses, not as errors', async () => {
    const statusOf = async (name: string): Promise<string> => (await lookup({ name, types: ['A'] })).results[0].status;
    assert.equal(await statusOf('nowhere.example'), 'NXDOMAIN');
    assert.equal(await statusOf('broken.example'), 'SERVFAIL');
    assert.equal(await statusOf('refused.example'), 'REFUSED');
  });

  it('queries the punycode of an IDN and reports it as the name', async () => {
    const response = await lookup({ name: 'bücher.example', types: ['A'] });
    assert.equal(response.name, 'xn--bcher-kva.example');
    assert.equal(primary.queries[0].name, 'xn--bcher-kva.example');
    assert.deepEqual(response.results[0].records, [{ name: 'xn--bcher-kva.example', type: 'A', ttl: 5, data: '192.0.2.7' }]);
  });

  it('takes the host of a URL and the domain of an e-mail address', async () => {
    assert.equal((await lookup({ name: 'https://Example.com:8443/path?q=1', types: ['A'] })).name, 'example.com');
    assert.equal((await lookup({ name: 'hostmaster@EXAMPLE.com.', types: ['MX'] })).results[0].records[0].data, '10 mail.example.com.');
    assert.deepEqual(
      primary.queries.map((query) => query.name),
      ['example.com', 'example.com'],
    );
  });

  it('looks an IPv4 address up as PTR of its in-addr.arpa name, replacing the requested types', async () => {
    const response = await lookup({ name: '1.2.3.4', types: ['A', 'MX'] });
    assert.deepEqual(response, {
      name: '4.3.2.1.in-addr.arpa',
      results: [
        {
          type: 'PTR',
          status: 'NOERROR',
          authenticated: false,
          records: [{ name: '4.3.2.1.in-addr.arpa', type: 'PTR', ttl: 600, data: 'host.example.net.' }],
        },
      ],
    });
    assert.deepEqual(
      primary.queries.map((query) => query.type),
      [12],
    );
  });

  it('looks an IPv6 address up under ip6.arpa', async () => {
    const response = await lookup({ name: '2001:db8::1' });
    // 2001:0db8:0000:0000:0000:0000:0000:0001 → 32 nibbles reversed: 1 0 0 0, twenty 0, 8 b d 0 1 0 0 2.
    const arpa = `1.0.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.ip6.arpa`;
    assert.equal(response.name, arpa);
    assert.equal(primary.queries[0].name, arpa);
    assert.deepEqual(response.results, [{ type: 'PTR', status: 'NXDOMAIN', authenticated: false, records: [] }]);
  });

  it('refuses names that are not host names with 422 invalid_domain, without asking the resolver', async () => {
    for (const name of ['exa mple.com', 'a..b', '-a.com', `${'a'.repeat(64)}.com`, 'example.123', 'http://', '@example.com', '\uD800.com']) {
      await rejectsWith({ name }, 422, 'invalid_domain');
    }
    assert.equal(primary.queries.length, 0);
  });
});

describe('dns-lookup.lookup: request validation', () => {
  it('bounds name to 1–300 characters', async () => {
    await rejectsAt({ name: '' }, '/name');
    await rejectsAt({ name: `https://example.com/${'a'.repeat(281)}` }, '/name');
    // 300 characters exactly: accepted (a URL whose host is example.com).
    const longest = `https://example.com/${'a'.repeat(280)}`;
    assert.equal(longest.length, 300);
    assert.equal((await lookup({ name: longest, types: ['A'] })).name, 'example.com');
  });

  it('bounds types to 1–13 distinct known types', async () => {
    await rejectsAt({ name: 'example.com', types: [] }, '/types');
    // A repeated type is named by its index: the second 'A' is /types/2.
    await assert.rejects(invoke(dnsLookup, 'lookup', { name: 'example.com', types: ['A', 'MX', 'A'] }, { config: config() }), {
      status: 400,
      code: 'validation_failed',
      details: [{ path: '/types/2', message: 'repeats A' }],
    });
    await rejectsAt({ name: 'example.com', types: ['A', 'ANY'] }, '/types/1');
    await rejectsAt({ name: 'example.com', types: ['a'] }, '/types/0');
    await rejectsAt({ name: 'example.com', types: 'A' }, '/types');
    const all = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR', 'DS', 'DNSKEY', 'HTTPS'];
    await rejectsAt({ name: 'example.com', types: [...all, 'A'] }, '/types');
    const response = await lookup({ name: 'example.com', types: all });
    assert.deepEqual(
      response.results.map((result) => result.type),
      all,
    );
  });

  it('accepts only the two resolver names', async () => {
    await rejectsAt({ name: 'example.com', resolver: 'quad9' }, '/resolver');
    await rejectsAt({ name: 'example.com', resolver: 'Google' }, '/resolver');
  });

  it('refuses missing, mistyped and unknown fields', async () => {
    await rejectsAt({}, '/name');
    await rejectsAt({ name: 5 }, '/name');
    await rejectsAt({ name: 'example.com', recursive: true }, '/recursive');
  });
});

describe('dns-lookup.lookup: hostile input', () => {
  it('answers a 10 MB name with 400 at once', async () => {
    const started = performance.now();
    await rejectsAt({ name: 'a'.repeat(10 * 1024 * 1024) }, '/name');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('answers 20,000 types with 400 quickly', async () => {
    const started = performance.now();
    await rejectsAt({ name: 'example.com', types: new Array(20_000).fill('A') }, '/types');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('answers odd Unicode with 422 and no query', async () => {
    for (const name of ['\u0000', '\u202Eexample.com', '😀'.repeat(150), 'a\uDFFF.example', '.'.repeat(300), '\uFEFF']) {
      await rejectsWith({ name }, 422, 'invalid_domain');
    }
    assert.equal(primary.queries.length, 0);
  });
});

describe('dns-lookup.lookup: the manifest examples', () => {
  it('each example is what the handler answers when the resolver holds the example records', async () => {
    for (const example of dnsLookup.operations.lookup.examples) {
      const entries = zoneAnswering(example.response as Response);
      const resolver = await startResolver(entries);
      try {
        const got = await invoke(dnsLookup, 'lookup', example.body, { config: { resolvers: { cloudflare: resolver.url, google: resolver.url } } });
        assert.deepEqual(got, example.response, example.title);
      } finally {
        await resolver.close();
      }
    }
  });
});
