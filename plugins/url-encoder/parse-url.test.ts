import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import urlEncoder from './index.js';
import { countParams, MAX_HOST_LENGTH, MAX_PARAMS, MAX_URL_LENGTH, specialHostLength } from './parse-url.js';

interface Parsed {
  parts: { key: string; value: string }[];
  params: { key: string; value: string }[];
}

const parse = async (url: string): Promise<Parsed> => (await invoke(urlEncoder, 'parse', { url })) as Parsed;
/** The parts as a plain object, for shorter assertions (the order is asserted separately). */
const partsOf = async (url: string): Promise<Record<string, string>> =>
  Object.fromEntries((await parse(url)).parts.map(({ key, value }) => [key, value]));

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe('url-encoder.parse', () => {
  it('lists the parts in the contract order, without ":", "?" and "#"', async () => {
    const { parts } = await parse('https://user:pw@example.com:8080/a/b?x=1#top');
    assert.deepEqual(
      parts.map(({ key }) => key),
      ['protocol', 'username', 'password', 'host', 'hostname', 'port', 'origin', 'path', 'query', 'fragment'],
    );
    assert.deepEqual(parts.map(({ value }) => value), [
      'https', 'user', 'pw', 'example.com:8080', 'example.com', '8080', 'https://example.com:8080', '/a/b', 'x=1', 'top',
    ]);
  });

  it('leaves out empty parts: no user info, default port, empty query and fragment', async () => {
    // 443 is https's default port, so WHATWG drops it; "?" and "#" alone give empty query and fragment.
    assert.deepEqual(await parse('https://example.com:443/?#'), {
      parts: [
        { key: 'protocol', value: 'https' },
        { key: 'host', value: 'example.com' },
        { key: 'hostname', value: 'example.com' },
        { key: 'origin', value: 'https://example.com' },
        { key: 'path', value: '/' },
      ],
      params: [],
    });
  });

  it('returns parts as WHATWG serialises them: lower-cased scheme and host, punycode, dot segments, escapes', async () => {
    // RFC 3492 / IDNA: "bücher" → "xn--bcher-kva".
    assert.deepEqual(await partsOf('HTTPS://Bücher.EXAMPLE/a/../b c'), {
      protocol: 'https',
      host: 'xn--bcher-kva.example',
      hostname: 'xn--bcher-kva.example',
      origin: 'https://xn--bcher-kva.example',
      path: '/b%20c',
    });
    assert.deepEqual(await partsOf('http://[::1]:3000/'), {
      protocol: 'http',
      host: '[::1]:3000',
      hostname: '[::1]',
      port: '3000',
      origin: 'http://[::1]:3000',
      path: '/',
    });
  });

  it('omits the opaque origin "null" of mailto:, file: and other non-special URLs', async () => {
    assert.deepEqual(await partsOf('mailto:someone@example.com?subject=hi'), {
      protocol: 'mailto',
      path: 'someone@example.com',
      query: 'subject=hi',
    });
    assert.deepEqual(await partsOf('file:///etc/hosts'), { protocol: 'file', path: '/etc/hosts' });
  });

  it('accepts whatever WHATWG calls absolute: "localhost:8080" has the scheme "localhost"', async () => {
    assert.deepEqual(await partsOf('localhost:8080'), { protocol: 'localhost', path: '8080' });
  });

  it('decodes params in order with duplicates, + as space, empty pieces skipped', async () => {
    // € = %E2%82%AC (U+20AC → E2 82 AC); "&&" holds an empty piece that is not a parameter.
    const { params } = await parse('https://a.example/?a=1&a=2&b=x+y%2B&c=%E2%82%AC&&d&=e&f==');
    assert.deepEqual(params, [
      { key: 'a', value: '1' },
      { key: 'a', value: '2' },
      { key: 'b', value: 'x y+' },
      { key: 'c', value: '€' },
      { key: 'd', value: '' },
      { key: '', value: 'e' },
      { key: 'f', value: '=' },
    ]);
  });

  it('refuses anything that is not an absolute URL with 422 invalid_url', async () => {
    for (const url of ['', '/relative/path', 'example.com', '//example.com/a', 'http://', 'https://exa mple.com/', 'http://[::1/', '1http://x']) {
      await rejectsWith(invoke(urlEncoder, 'parse', { url }), 422, 'invalid_url');
    }
  });

  it('answers 400 with details for a missing or non-string url', async () => {
    await assert.rejects(invoke(urlEncoder, 'parse', {}), { status: 400, details: [{ path: '/url', message: 'is required' }] });
    await assert.rejects(invoke(urlEncoder, 'parse', { url: ['https://a.example'] }), {
      status: 400,
      details: [{ path: '/url', message: 'must be a string' }],
    });
  });

  it(`measures the host like the parser: ${MAX_HOST_LENGTH} characters pass, one more is host_too_long`, async () => {
    const inside = `https://${'a'.repeat(MAX_HOST_LENGTH - 5)}.test/`; // 4091 + ".test" = 4096
    assert.equal((await partsOf(inside)).hostname?.length, MAX_HOST_LENGTH);
    await rejectsWith(invoke(urlEncoder, 'parse', { url: `https://${'a'.repeat(MAX_HOST_LENGTH - 4)}.test/` }), 422, 'host_too_long');
    // user info ends at the last "@" and is not host; the port counts with the host.
    assert.equal(specialHostLength(`https://${'u'.repeat(9000)}@ab.c:80/x`), 'ab.c:80'.length);
    // Tabs and newlines vanish before WHATWG parsing, also inside the scheme; leading spaces are skipped.
    assert.equal(specialHostLength(' \tht\ntps:\\/\tab\nc?d'), 3);
    // file: has a host only after exactly two slashes.
    assert.equal(specialHostLength('file://ab/c'), 2);
    assert.equal(specialHostLength(`file:///${'x'.repeat(9000)}`), 0);
    assert.equal(specialHostLength(`file:/${'x'.repeat(9000)}`), 0);
    assert.equal((await partsOf(`file:///${'x'.repeat(9000)}`)).path?.length, 9001);
    // Non-special schemes keep an opaque host (no IDNA), so they are not measured.
    assert.equal(specialHostLength(`foo://${'é'.repeat(9000)}`), 0);
    assert.equal(specialHostLength('no scheme here'), 0);
  });

  it(`lists ${MAX_PARAMS} params; one more is 422 output_too_large`, async () => {
    assert.equal(countParams('a&&b&'), 2);
    assert.equal((await parse(`https://a.example/?${'p&'.repeat(MAX_PARAMS)}`)).params.length, MAX_PARAMS);
    await rejectsWith(invoke(urlEncoder, 'parse', { url: `https://a.example/?${'p&'.repeat(MAX_PARAMS + 1)}` }), 422, 'output_too_large');
  });

  it(`parses a URL of ${MAX_URL_LENGTH} characters (Chromium's 2 MiB) and refuses one more with url_too_long`, async () => {
    const prefix = 'https://a.example/'; // 18 characters
    assert.equal(MAX_URL_LENGTH, 2_097_152);
    const parsed = await partsOf(prefix + 'x'.repeat(MAX_URL_LENGTH - 18));
    assert.equal(parsed.path?.length, MAX_URL_LENGTH - 17); // the path keeps its leading "/"
    await rejectsWith(invoke(urlEncoder, 'parse', { url: prefix + 'x'.repeat(MAX_URL_LENGTH - 17) }), 422, 'url_too_long');
  });

  it('hostile: a 200,000-character Unicode host, 1 M parameters, 10 MB answer without stalling', async () => {
    // Distinct CJK code points make punycode quadratic: unguarded, new URL takes seconds here.
    let host = '';
    for (let index = 0; index < 200_000; index++) host += String.fromCodePoint(0x4e00 + (index % 20_000));
    let ms = await timed(() => rejectsWith(invoke(urlEncoder, 'parse', { url: `https://${host}/` }), 422, 'host_too_long'));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
    ms = await timed(() => rejectsWith(invoke(urlEncoder, 'parse', { url: `https://a.example/?${'a&'.repeat(1_000_000)}` }), 422, 'output_too_large'));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
    ms = await timed(() => rejectsWith(invoke(urlEncoder, 'parse', { url: `https://a.example/?${'é'.repeat(10_000_000)}` }), 422, 'url_too_long'));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
    // A valid URL of the largest size, all of it escaped twice over in query and params.
    let parsed: Parsed = { parts: [], params: [] };
    ms = await timed(async () => (parsed = await parse(`https://a.example/?q=${'é'.repeat(MAX_URL_LENGTH - 21)}`)));
    assert.equal(parsed.params[0]?.value.length, MAX_URL_LENGTH - 21);
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
  });
});
