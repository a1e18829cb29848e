import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import urlEncoder from './index.js';
import { percentEncode } from './percent.js';

const encode = async (body: Record<string, unknown>): Promise<string> =>
  ((await invoke(urlEncoder, 'encode', body)) as { encoded: string }).encoded;
const decode = async (body: Record<string, unknown>): Promise<string> =>
  ((await invoke(urlEncoder, 'decode', body)) as { decoded: string }).decoded;

/** Runs `work` and returns how long it took, in milliseconds. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe('url-encoder.encode', () => {
  it('defaults to the component scope without plus: MDN\'s "шеллы" vector', async () => {
    // MDN encodeURIComponent/decodeURIComponent page: "JavaScript_шеллы" ⇄ this string.
    assert.deepEqual(await invoke(urlEncoder, 'encode', { text: 'JavaScript_шеллы' }), {
      encoded: 'JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B',
    });
    assert.equal(await encode({ text: 'a b' }), 'a%20b');
  });

  it('component keeps only A–Z a–z 0–9 - _ . ! ~ * \' ( ) and escapes the URL delimiters', async () => {
    assert.equal(await encode({ text: "AZaz09-_.!~*'()" }), "AZaz09-_.!~*'()");
    // ASCII table: ; 3B , 2C / 2F ? 3F : 3A @ 40 & 26 = 3D + 2B $ 24 # 23 % 25
    assert.equal(await encode({ text: ';,/?:@&=+$#%' }), '%3B%2C%2F%3F%3A%40%26%3D%2B%24%23%25');
  });

  it('full keeps ; , / ? : @ & = + $ # but still escapes space, %, [ ] and non-ASCII', async () => {
    assert.equal(await encode({ text: ';,/?:@&=+$#', scope: 'full' }), ';,/?:@&=+$#');
    // space 20, % 25, [ 5B, ] 5D, é = U+00E9 = 110 00011 10 101001 → C3 A9
    assert.equal(await encode({ text: 'a b%[]é', scope: 'full' }), 'a%20b%25%5B%5D%C3%A9');
  });

  it('escapes exactly the ASCII characters encodeURIComponent and encodeURI escape (the issue defines the sets by them)', () => {
    for (let code = 0; code < 128; code++) {
      const character = String.fromCharCode(code);
      assert.equal(percentEncode(character, 'component', false), encodeURIComponent(character), `U+${code.toString(16)}`);
      assert.equal(percentEncode(character, 'full', false), encodeURI(character), `U+${code.toString(16)}`);
    }
  });

  it('encodes UTF-8 of every length (worked by hand)', async () => {
    // € U+20AC = 0010 000010 101100 → 1110_0010 10_000010 10_101100 = E2 82 AC
    // 😀 U+1F600 = 000 011111 011000 000000 → F0 9F 98 80 (a surrogate pair in the JSON string)
    assert.equal(await encode({ text: 'é€😀' }), '%C3%A9%E2%82%AC%F0%9F%98%80');
  });

  it('spaceAsPlus writes spaces as + and a literal + as %2B in both scopes', async () => {
    assert.equal(await encode({ text: 'a b+c', spaceAsPlus: true }), 'a+b%2Bc');
    assert.equal(await encode({ text: 'a b+c', scope: 'full', spaceAsPlus: true }), 'a+b%2Bc');
    // A literal "%20" is first escaped to %2520, which must not turn into "+".
    assert.equal(await encode({ text: '%20 ', scope: 'full', spaceAsPlus: true }), '%2520+');
    assert.equal(await encode({ text: 'x+y', scope: 'full' }), 'x+y');
  });

  it('refuses lone surrogates with 422 invalid_text, accepts a valid pair', async () => {
    await rejectsWith(invoke(urlEncoder, 'encode', { text: 'a\ud800' }), 422, 'invalid_text');
    await rejectsWith(invoke(urlEncoder, 'encode', { text: '\udc00a', scope: 'full' }), 422, 'invalid_text');
    await rejectsWith(invoke(urlEncoder, 'encode', { text: '\ude00\ud83d' }), 422, 'invalid_text'); // pair in the wrong order
    assert.equal(await encode({ text: '\ud83d\ude00' }), '%F0%9F%98%80');
  });

  it('answers 400 with details for a missing text, an unknown scope, a non-boolean or an extra field', async () => {
    await rejectsField(invoke(urlEncoder, 'encode', {}), '/text');
    await rejectsField(invoke(urlEncoder, 'encode', { text: 5 }), '/text');
    await rejectsField(invoke(urlEncoder, 'encode', { text: 'a', scope: 'path' }), '/scope');
    await rejectsField(invoke(urlEncoder, 'encode', { text: 'a', spaceAsPlus: 'true' }), '/spaceAsPlus');
    await rejectsField(invoke(urlEncoder, 'encode', { text: 'a', plusAsSpace: true }), '/plusAsSpace');
  });

  it('hostile: empty text, and 10 M spaces become 10 M plus signs without stalling', async () => {
    assert.equal(await encode({ text: '' }), '');
    let encoded = '';
    const ms = await timed(async () => (encoded = await encode({ text: ' '.repeat(10_000_000), spaceAsPlus: true })));
    assert.equal(encoded, '+'.repeat(10_000_000));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
  });
});

describe('url-encoder.decode', () => {
  it('decodes UTF-8 escapes, upper or lower case, including the reserved characters', async () => {
    assert.deepEqual(await invoke(urlEncoder, 'decode', { text: 'JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B' }), {
      decoded: 'JavaScript_шеллы',
    });
    assert.equal(await decode({ text: '%c3%a9%E2%82%ac' }), 'é€');
    assert.equal(await decode({ text: '%2F%26%3D%3F%23%25' }), '/&=?#%');
    assert.equal(await decode({ text: '%F0%9F%98%80' }), '😀');
  });

  it('keeps + by default; plusAsSpace turns + into a space but %2B into +', async () => {
    assert.equal(await decode({ text: 'a+b%2B' }), 'a+b+');
    assert.equal(await decode({ text: 'a+b%2B', plusAsSpace: true }), 'a b+');
  });

  it('passes unescaped text through unchanged, lone surrogates included', async () => {
    assert.equal(await decode({ text: 'plain ü text' }), 'plain ü text');
    assert.equal(await decode({ text: '\ud800%41+', plusAsSpace: true }), '\ud800A ');
  });

  it('refuses malformed escapes with 422 invalid_encoding, naming the index of a bad "%"', async () => {
    // The two examples; "%E0%A4%A" breaks at index 6 (% E 0 % A 4 %).
    await assert.rejects(invoke(urlEncoder, 'decode', { text: '%E0%A4%A' }), {
      status: 422,
      code: 'invalid_encoding',
      message: 'The "%" at index 6 is not followed by two hex digits',
    });
    await rejectsWith(invoke(urlEncoder, 'decode', { text: '%ZZ' }), 422, 'invalid_encoding');
    await rejectsWith(invoke(urlEncoder, 'decode', { text: '100%' }), 422, 'invalid_encoding');
  });

  it('refuses escapes that are not UTF-8: FF, truncated, surrogate, overlong', async () => {
    for (const text of ['%FF', '%C3', '%C3%28', '%ED%A0%80', '%C0%AF', '%F4%90%80%80']) {
      await assert.rejects(invoke(urlEncoder, 'decode', { text }), {
        status: 422,
        code: 'invalid_encoding',
        message: 'The percent-escapes do not form valid UTF-8',
      });
    }
  });

  it('answers 400 with details for a missing text or a non-boolean plusAsSpace', async () => {
    await rejectsField(invoke(urlEncoder, 'decode', {}), '/text');
    await rejectsField(invoke(urlEncoder, 'decode', { text: 'a', plusAsSpace: 1 }), '/plusAsSpace');
  });

  it('hostile: 10 M plus signs, 3.3 M escapes, 10 M bare "%" answer without stalling', async () => {
    let decoded = '';
    let ms = await timed(async () => (decoded = await decode({ text: '+'.repeat(10_000_000), plusAsSpace: true })));
    assert.equal(decoded, ' '.repeat(10_000_000));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
    ms = await timed(async () => (decoded = await decode({ text: '%41'.repeat(3_333_333) })));
    assert.equal(decoded, 'A'.repeat(3_333_333));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
    ms = await timed(() => rejectsWith(invoke(urlEncoder, 'decode', { text: '%'.repeat(10_000_000) }), 422, 'invalid_encoding'));
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
  });
});
