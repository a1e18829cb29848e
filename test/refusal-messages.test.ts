// Refusals of the built-in plugins that an independent fuzzer and a new operator found unclear or
// wrong (issue 22), over HTTP with their exact answers: a pattern V8 refuses only when it first runs,
// an IPv6 prefix, a text that is not a JWT at all, a ragged CSV in auto mode.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

const post = (path: string, body: object) => send(service.url, path, { body });
const refusal = (code: string, message: string) => ({ error: { code, message } });

describe('regex-tester: a pattern V8 compiles only when it first runs', () => {
  it('answers 422 invalid_regex, not 500, whatever the text and the flags', async () => {
    // `new RegExp` parses 32,768 "a"s; compiling them (on the first exec) fails: V8 addresses a
    // literal's characters with 15-bit offsets, so 32,767 is the longest literal it compiles.
    const pattern = 'a'.repeat(32_768);
    const plain = await post('/v1/regex-tester/test', { pattern, text: 'x' });
    assert.equal(plain.status, 422);
    assert.deepEqual(plain.json, refusal('invalid_regex', 'Invalid regular expression: V8 cannot compile it (Regular expression too large)'));
    // V8 compiles again for a text with characters above U+00FF, and the replacement runs the
    // pattern too. Case-insensitive, V8's compiler may run out of stack first: the reason differs.
    const bodies = [{ pattern, text: '' }, { pattern, text: 'ā', flags: 'iu' }, { pattern, text: 'x', replacement: 'y', flags: 'y' }];
    for (const body of bodies) {
      const answer = await post('/v1/regex-tester/test', body);
      assert.equal(answer.status, 422, JSON.stringify({ ...body, pattern: undefined }));
      const error = (answer.json as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'invalid_regex');
      assert.match(error.message, /^Invalid regular expression: V8 cannot compile it \((Regular expression too large|Stack overflow)\)$/);
    }
  });
});

describe('subnet-calculator: IPv6', () => {
  it('says IPv6 is not supported, for a prefix, a bare address or a zone', async () => {
    const message = 'IPv6 is not supported: this calculator takes an IPv4 address, "a.b.c.d/prefix" or "a.b.c.d netmask"';
    for (const address of ['2001:db8::/32', '::1', ' fe80::1%eth0/64 ', '::ffff:192.0.2.1/120']) {
      const answer = await post('/v1/subnet-calculator/calculate', { address });
      assert.equal(answer.status, 422, address);
      assert.deepEqual(answer.json, refusal('invalid_address', message), address);
    }
    // An IPv4 mistake is still told as one.
    const octal = await post('/v1/subnet-calculator/calculate', { address: '010.0.0.1/8' });
    assert.deepEqual(octal.json, refusal('invalid_address', 'The address is not a dotted-quad IPv4 address (four numbers 0–255, no leading zeros)'));
  });
});

describe('jwt-decoder: a text that is not a JWT', () => {
  const notAJwt = (problem: string) =>
    refusal('invalid_token', `This is not a JWT: its first part must be the header, base64url-encoded JSON (so it starts with "eyJ"), but it ${problem}`);

  it('says it is not a JWT and why, for each way the first part fails', async () => {
    const cases: [string, string][] = [
      // "not" is base64url for the bits 100111 101000 101101: the bytes 0x9E 0x8B, and 0x9E is a
      // UTF-8 continuation byte with nothing before it.
      ['not.a.jwt', 'decodes to bytes that are not UTF-8 text'],
      // "aGVsbG8" is base64url for "hello".
      ['aGVsbG8.e30.sig', 'decodes to text that is not JSON'],
      // "WzFd" is base64url for "[1]".
      ['WzFd.e30.sig', 'decodes to JSON that is not an object'],
      ['a+b.e30.sig', 'is not base64url (RFC 7515: A–Z a–z 0–9 - _, no padding)'],
      ['.e30.sig', 'is empty'],
    ];
    for (const [token, problem] of cases) {
      const answer = await post('/v1/jwt-decoder/decode', { token });
      assert.equal(answer.status, 422, token);
      assert.deepEqual(answer.json, notAJwt(problem), token);
    }
  });

  it('still names the payload when only the payload is broken', async () => {
    // eyJhbGciOiJIUzI1NiJ9 is {"alg":"HS256"}; "aGVsbG8" is "hello", not JSON.
    const answer = await post('/v1/jwt-decoder/decode', { token: 'eyJhbGciOiJIUzI1NiJ9.aGVsbG8.sig' });
    assert.deepEqual(answer.json, refusal('invalid_token', 'The payload decodes to text that is not JSON'));
  });
});

describe('data-converter: a ragged CSV in auto mode', () => {
  const advice =
    'the input is not JSON either, and YAML reads it as one string. Give every record as many fields as the first, or send from "csv" with header false to keep rows of any length';

  it('says which record breaks the table, not that the input is a single value', async () => {
    // Split at commas: "a,b" is 2 fields, "1,2,3" (line 2) is 3. No other delimiter splits line 1.
    const comma = await post('/v1/data-converter/convert', { input: 'a,b\n1,2,3\n', to: 'json' });
    assert.equal(comma.status, 422);
    assert.deepEqual(comma.json, refusal('invalid_input', `Invalid CSV: split at each comma, record 1 has 2 fields and record 2 has 3 (line 2); ${advice}`));
    // A blank line is no record: the short record is record 3, on line 4.
    const semicolon = await post('/v1/data-converter/convert', { input: 'a;b;c\n1;2;3\n\n4;5\n', to: 'yaml' });
    assert.deepEqual(semicolon.json, refusal('invalid_input', `Invalid CSV: split at each semicolon, record 1 has 3 fields and record 3 has 2 (line 4); ${advice}`));
  });

  it('keeps the single-value message for a text that splits nowhere', async () => {
    const answer = await post('/v1/data-converter/convert', { input: 'hello\nworld', to: 'json' });
    assert.deepEqual(answer.json, refusal('unsupported_input', 'The input is a single value in every format (JSON, CSV and YAML); give an object, an array or a table'));
  });
});

describe('messages never quote whole inputs (docs/errors.md)', () => {
  it('invalid_color and an unknown cron macro name the problem without repeating the field', async () => {
    const errors = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    assert.match(errors.replace(/\s+/g, ' '), /Messages never quote secrets or whole inputs/);
    const cases: [string, object, string, string][] = [
      ['/v1/color-converter/convert', { color: 'nocolourhere' }, 'nocolourhere', 'invalid_color'],
      ['/v1/cron-expression/explain', { expression: '@fortnightly' }, 'fortnightly', 'invalid_cron'],
    ];
    for (const [path, body, input, code] of cases) {
      const answer = await post(path, body);
      assert.equal(answer.status, 422, path);
      const error = (answer.json as { error: { code: string; message: string } }).error;
      assert.equal(error.code, code);
      assert.ok(!error.message.includes(input), `${path}: ${error.message}`);
    }
  });
});
