// The tool pages' derivations, in Node: body schema → form fields, answer → what is drawn, error
// answer → words, OpenAPI document → catalog. The schemas are the real manifests' (as JSON, the way
// the OpenAPI document carries them); the browser test (test/browser/tool-pages.test.ts) runs them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Plugin } from '@toolshed/plugin-sdk';
import { operationContract } from '@toolshed/plugin-sdk/contract';
import exif from '../plugins/exif-viewer/index.js';
import hashes from '../plugins/hash-generator/index.js';
import qr from '../plugins/qr-code-generator/index.js';
import textDiff from '../plugins/text-diff/index.js';
import dns from '../plugins/dns-lookup/index.js';
import { catalogOf } from '../tool-pages/catalog.js';
import { humanDuration, textOf, viewOf, type View } from '../tool-pages/shared/answers.js';
import { plainMessage, problemOf } from '../tool-pages/shared/problems.js';
import { fieldNames, formOf, mainField, type Field } from '../tool-pages/shared/fields.js';
import { humanize, roughlyMatches, valueLabel, type Json, type Schema } from '../tool-pages/shared/schema.js';
import colors from '../plugins/color-converter/index.js';
import passwords from '../plugins/password-generator/index.js';
import { likelyToolFinder } from '../tool-pages/serve.js';
import { nearestOperation } from '../kernel/host/index.js';

const json = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema)) as Schema;
/** An operation's schemas as the OpenAPI document serves them (compiled: defaulted members are optional on the wire). */
function schemas(plugin: Plugin, name: string): { body: Schema; response: Schema } {
  const operation = operationContract(plugin, name);
  return { body: json(operation.requestSchema), response: json(operation.responseSchema) };
}
const member = (form: Field, name: string): Field => {
  assert.equal(form.kind, 'group');
  const found = form.kind === 'group' ? form.members.find((entry) => entry.name === name) : undefined;
  assert.ok(found, `the form has ${name}`);
  return found.field;
};

describe('body schema → form', () => {
  const qrForm = formOf(schemas(qr, 'create').body);

  it('gives bounded integers a number field with their bounds and default, and enumerations a select', () => {
    // margin: Type.Integer({ minimum: 0, maximum: 16, default: 2 }); errorCorrection: L | M | Q | H, default M.
    assert.deepEqual(member(qrForm, 'margin'), { pointer: '/margin', label: 'Margin', required: false, description: 'Quiet zone around the code, in modules', defaultValue: 2, kind: 'number', integer: true, min: 0, max: 16 });
    const correction = member(qrForm, 'errorCorrection');
    assert.equal(correction.kind, 'select');
    assert.deepEqual(correction.kind === 'select' && correction.options, ['L', 'M', 'Q', 'H']);
    assert.equal(correction.defaultValue, 'M');
  });

  it('gives a union of objects a switch named by each branch\'s fixed type, which is sent, not asked', () => {
    const content = member(qrForm, 'content');
    assert.equal(content.kind, 'union');
    if (content.kind !== 'union') return;
    assert.equal(content.required, true);
    assert.deepEqual(content.branches.map((branch) => branch.label), ['text', 'wifi', 'contact', 'email']);
    const wifi = content.branches[1]!.field;
    assert.equal(wifi.kind, 'group');
    if (wifi.kind !== 'group') return;
    assert.deepEqual(wifi.fixed, { type: 'wifi' });
    assert.deepEqual(wifi.members.map((entry) => [entry.name, entry.field.kind, entry.field.pointer, entry.field.required]), [
      ['ssid', 'text', '/content/ssid', true],
      ['password', 'text', '/content/password', false],
      ['security', 'select', '/content/security', false],
      ['hidden', 'checkbox', '/content/hidden', false],
    ]);
    // An example's value picks its branch by that fixed member.
    assert.deepEqual(content.branches.map((branch) => roughlyMatches(branch.schema, { type: 'email', to: 'a@example.com' })), [false, false, false, true]);
  });

  it('gives strings bounded to 1,000 characters a line and unbounded ones a text area', () => {
    const dark = member(qrForm, 'dark');
    assert.deepEqual(dark.kind === 'text' && [dark.multiline, dark.maxLength], [false, 100]);
    const text = member(formOf(schemas(qr, 'text').body), 'text');
    assert.deepEqual(text.kind === 'text' && [text.multiline, text.minLength, text.required], [true, 1, true]);
  });

  it('gives an array of distinct fixed values one checkbox each, the default all checked', () => {
    const algorithms = member(formOf(schemas(hashes, 'hash').body), 'algorithms');
    assert.equal(algorithms.kind, 'choices');
    assert.deepEqual(algorithms.kind === 'choices' && [algorithms.options, algorithms.minItems, algorithms.maxItems], [['MD5', 'SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'], 1, 5]);
    assert.deepEqual(algorithms.defaultValue, ['MD5', 'SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']);
  });

  it('gives an array of open values a list, a number-or-text union one box, and a union of other scalar kinds a switch by kind', () => {
    const types = member(formOf(schemas(dns, 'lookup').body), 'types');
    assert.ok(types.kind === 'list' || types.kind === 'choices', types.kind);
    // A number or a numeral: typed in one box; the page sends a number when the text is one the number branch takes.
    const roman = member(formOf({ type: 'object', required: ['value'], properties: { value: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }] } } }), 'value');
    assert.deepEqual(roman.kind === 'text' && [roman.required, roman.number], [true, { type: 'integer', minimum: 1 }]);
    const either = member(formOf({ type: 'object', properties: { flag: { anyOf: [{ type: 'boolean' }, { type: 'string' }] } } }), 'flag');
    assert.deepEqual(either.kind === 'union' && either.branches.map((branch) => [branch.label, branch.field.kind]), [['boolean', 'checkbox'], ['text', 'text']]);
    const list = member(formOf({ type: 'object', properties: { to: { type: 'array', items: { type: 'string' }, maxItems: 40 } } }), 'to');
    assert.deepEqual(list.kind === 'list' && [list.item.kind, list.item.pointer, list.maxItems], ['text', '/to/-', 40]);
  });

  it('gives a Base64 file field (contentEncoding) a file picker for its media type', () => {
    assert.deepEqual(member(formOf(schemas(exif, 'read').body), 'dataBase64'), {
      pointer: '/dataBase64',
      label: 'Data (Base64)',
      required: true,
      description: 'A JPEG, PNG or WebP file as Base64 (either alphabet; a data: URL prefix is accepted)',
      kind: 'file',
      mediaType: 'image/*',
    });
  });

  it('gives a nested object a group with pointers into it, and anything unknown a JSON field', () => {
    const form = formOf({ type: 'object', required: ['range'], properties: { range: { type: 'object', properties: { 'a/b': { type: 'boolean' } } }, free: {} } });
    const range = member(form, 'range');
    assert.deepEqual(range.kind === 'group' && range.members.map((entry) => entry.field.pointer), ['/range/a~1b']);
    assert.equal(member(form, 'free').kind, 'json');
  });

  it('lists every field name, nested and in unions, for the search', () => {
    assert.deepEqual(fieldNames(schemas(qr, 'create').body).slice(0, 6), ['content', 'type', 'text', 'ssid', 'password', 'security']);
  });
});

describe('answer → view', () => {
  const kinds = (view: View): string[] => (view.kind === 'record' ? view.entries.map((entry) => `${entry.name}:${entry.view.kind}`) : [view.kind]);

  it('shows an SVG string (contentMediaType image/svg+xml) as an image and short text as a value', () => {
    const example = qr.operations.create!.examples[0]!.response as Json;
    assert.deepEqual(kinds(viewOf(schemas(qr, 'create').response, example)), ['payload:value', 'svg:image']);
  });

  it('shows a Base64 file answer (contentEncoding) as a file to download', () => {
    const view = viewOf(schemas(exif, 'strip').response, { dataBase64: 'iVBORw0K', format: 'png', bytesBefore: 450, bytesAfter: 120 });
    assert.deepEqual(kinds(view), ['dataBase64:file', 'format:value', 'bytesBefore:value', 'bytesAfter:value']);
  });

  it('shows line rows side by side and word parts inline, as diffs', () => {
    const lines = textDiff.operations.lines!.examples[0]!.response as Json;
    assert.deepEqual(kinds(viewOf(schemas(textDiff, 'lines').response, lines)), ['identical:value', 'added:value', 'removed:value', 'rows:side-by-side']);
    const inline = viewOf(schemas(textDiff, 'inline').response, { identical: false, parts: [{ type: 'same', value: 'a ' }, { type: 'del', value: 'b' }, { type: 'add', value: 'c' }] });
    assert.deepEqual(kinds(inline), ['identical:value', 'parts:parts']);
    assert.equal(inline.kind === 'record' && textOf(inline.entries[1]!.view), 'a bc');
  });

  it('shows arrays of records as tables, nested ones as tables in cells', () => {
    const answer = dns.operations.lookup!.examples[0]!.response as Json;
    const view = viewOf(schemas(dns, 'lookup').response, answer);
    const results = view.kind === 'record' ? view.entries[1]!.view : view;
    assert.equal(results.kind, 'table');
    if (results.kind !== 'table') return;
    assert.deepEqual(results.columns.map((column) => column.label), ['Type', 'Status', 'Authenticated', 'Records']);
    const records = results.rows[0]![3]!;
    assert.deepEqual(records.kind === 'table' && records.rows.map((row) => textOf(row[3]!)), ['www.example.com-v4.edgesuite.net.', '23.215.0.136']);
  });

  it('shows multi-line text as code, maps with their own keys, nothing as empty', () => {
    const schema: Schema = { type: 'object', properties: { json: { type: 'string' }, rates: { type: 'object', additionalProperties: { type: 'number' } }, gps: { anyOf: [{ type: 'object' }, { type: 'null' }] } } };
    const view = viewOf({ ...schema, properties: { ...schema.properties, other: { type: 'array', items: { type: 'string' } } } }, { json: '{\n  "a": 1\n}', rates: { USD: 1.0842 }, gps: null, other: [] });
    assert.deepEqual(kinds(view), ['json:code', 'rates:record', 'gps:empty', 'other:empty']);
    assert.equal(textOf(view), 'JSON: {\n  "a": 1\n}\nRates: USD: 1.0842\nGPS: \nOther: ');
  });
});

describe('error answer → words', () => {
  it('names the offending fields of a 400 by their pointers', () => {
    const body = { error: { code: 'validation_failed', message: 'Invalid request parameters', details: [{ path: '/margin', message: 'must be <= 16' }] } };
    assert.deepEqual(problemOf(400, body, null), { message: 'Check the marked field: Margin must be at most 16.', fields: [{ pointer: '/margin', message: 'Margin must be at most 16.' }] });
  });

  it('says a 422 and a 429 in words, the wait from Retry-After', () => {
    assert.equal(problemOf(422, { error: { code: 'data_too_long', message: 'The payload does not fit' } }, null).message, 'The tool cannot process this input: The payload does not fit.');
    assert.equal(problemOf(429, { error: { code: 'rate_limited', message: 'Rate limit exceeded' } }, '17').message, 'Too many requests from this address for now: try again in 17 seconds.');
    assert.equal(problemOf(429, undefined, null).message, 'Too many requests from this address for now: try again in a moment.');
    assert.equal(problemOf(503, 'not json', null).message, 'The service failed to answer (503): try again later.');
  });
});

describe('OpenAPI document → catalog', () => {
  it('groups operations by tag, with pages, reference links, examples and search text', () => {
    const document = {
      tags: [{ name: 'word-tools', description: 'Words' }],
      paths: {
        '/v1/word-tools/reverse': {
          post: {
            operationId: 'word-tools.reverse',
            summary: 'Reverse a word',
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { word: { type: 'string' } } }, examples: { example1: { summary: 'Hello', value: { word: 'hello' } } } } } },
            responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
        '/healthz': { get: {} },
      },
    };
    const catalog = catalogOf(document);
    assert.deepEqual(catalog.groups.map((group) => [group.name, group.summary, group.tools.map((tool) => tool.page)]), [['word-tools', 'Words', ['/tools/word-tools/reverse']]]);
    const tool = catalog.pages.get('/tools/word-tools/reverse')!;
    assert.equal(tool.reference, '/docs#/word-tools/word-tools.reverse');
    assert.deepEqual(tool.examples, [{ title: 'Hello', body: { word: 'hello' } }]);
    assert.deepEqual(tool.search, { page: '/tools/word-tools/reverse', label: 'Word tools: reverse', summary: 'Reverse a word', action: 'reverse Reverse', title: 'Word tools word-tools', keywords: 'word-tools/reverse', fields: 'word', about: 'Words' });
  });

  it('humanizes names for labels', () => {
    assert.deepEqual(['firstHost', 'dataBase64', 'ttl', 'error_correction', 'ssid', 'svg', 'iat', 'ipv4Address', 'sha256'].map(humanize), [
      'First host',
      'Data (Base64)',
      'TTL',
      'Error correction',
      'SSID',
      'SVG',
      'Issued at',
      'IPv4 address',
      'SHA-256',
    ]);
  });

  it('titles, categories, keywords and live answers come from the document\'s x- members', () => {
    const post = (extra: Record<string, unknown>) => ({ post: { summary: 'S', requestBody: {}, responses: { '200': {} }, ...extra } });
    const catalog = catalogOf({
      tags: [
        { name: 'hash-generator', description: 'Digests', 'x-title': 'Hash generator', 'x-category': 'Security', 'x-keywords': ['sha256'] },
        { name: 'base64', 'x-title': 'Base64 encoder', 'x-category': 'Encoding' },
        { name: 'greeting' },
      ],
      paths: {
        '/v1/hash-generator/hash': post({ 'x-deterministic': true, 'x-offload': 'auto' }),
        '/v1/base64/encode': post({ 'x-deterministic': true, 'x-offload': 'always' }),
        '/v1/base64/decode': post({ 'x-deterministic': false, 'x-offload': 'auto' }),
        '/v1/greeting/hello': post({ responses: { '200': {}, '502': {} } }),
      },
      'x-disabled-groups': ['dns-lookup'],
    });
    // Categories in the SDK's order (Encoding before Security), groups without one last.
    assert.deepEqual(catalog.categories.map((category) => [category.name, category.groups.map((group) => group.title)]), [['Encoding', ['Base64 encoder']], ['Security', ['Hash generator']], ['Other tools', ['Greeting']]]);
    const tool = (page: string) => catalog.pages.get(page)!;
    assert.equal(tool('/tools/hash-generator/hash').title, 'Hash generator');
    assert.match(tool('/tools/hash-generator/hash').search.keywords, /\bsha256\b/);
    // Live: no upstream (502), deterministic, not always offloaded.
    assert.deepEqual(['/tools/hash-generator/hash', '/tools/base64/encode', '/tools/base64/decode', '/tools/greeting/hello'].map((page) => tool(page).live), [true, false, false, false]);
    assert.deepEqual(catalog.disabledGroups, ['dns-lookup']);
    // A mistyped address names the likely page; a known group with an unknown operation, its first.
    const likelyTool = likelyToolFinder(catalog.pages, nearestOperation);
    assert.equal(likelyTool('/tools/hash-generater/hash')?.page, '/tools/hash-generator/hash');
    assert.equal(likelyTool('/tools/Hash-Generator//hash/')?.page, '/tools/hash-generator/hash');
    assert.equal(likelyTool('/tools/base64/nothing-like-it')?.page, '/tools/base64/encode');
    assert.equal(likelyTool('/tools/hash/sha')?.page, '/tools/hash-generator/hash');
    assert.equal(likelyTool('/tools/qqqqqqqq/zzzzzzzz'), undefined);
  });
});

describe('plain words', () => {
  it('turns validator messages into sentences with the field\'s label', () => {
    assert.equal(plainMessage('SSID', 'must not have fewer than 1 characters'), 'Fill in SSID.');
    assert.equal(plainMessage('Text', 'is required'), 'Fill in Text.');
    assert.equal(plainMessage('Margin', 'must be <= 16'), 'Margin must be at most 16.');
    assert.equal(plainMessage('Count', 'must be >= 1'), 'Count must be at least 1.');
    assert.equal(plainMessage('Time zone', 'is not of the form the schema states: an IANA time-zone name'), 'Time zone: an IANA time-zone name.');
    assert.equal(plainMessage('Size', 'must be integer'), 'Size must be a whole number.');
    assert.equal(plainMessage('Note', 'something new'), 'Note: something new.');
    // No label from the form: the pointer's last name, in words.
    assert.equal(problemOf(400, { error: { message: 'x', details: [{ path: '/timeZone', message: 'must match pattern "^x$"' }] } }, null).fields[0]!.message, 'Time zone is not in the expected form.');
    assert.match(problemOf(401, { error: { code: 'unauthorized', message: 'An API key is required' } }, null).message, /^This server asks for an API key on every request/);
  });

  it('says enumerated answers and durations as people do, and marks colours and times', () => {
    const response = json(operationContract(passwords, 'password').responseSchema);
    const view = viewOf(response, { passwords: ['x'], entropyBits: 130, strength: 'veryStrong', crackSeconds: 1.12e37 });
    assert.equal(textOf(view), 'Passwords: x\nEntropy bits: 130\nStrength: Very strong\nCrack time: longer than the age of the universe (1.12e+37 s)');
    // 10,800 s is 3 hours exactly; 5,000 s is 1.39 hours, said "about 1 hour".
    assert.deepEqual([humanDuration(10_800), humanDuration(5000), humanDuration(5.04e-7), humanDuration(1.4e9)], ['3 hours', 'about 1 hour', 'less than a second', 'about 44 years']);
    assert.equal(valueLabel('H', { enum: ['L', 'M', 'Q', 'H'] }), 'H');
    assert.equal(valueLabel('sha256', { anyOf: [{ const: 'sha256', title: 'SHA-256' }] }), 'SHA-256');
    const colour = viewOf(json(operationContract(colors, 'convert').responseSchema), { hex: '#ff0000', rgb: 'rgb(255 0 0)', hsl: 'x', hsv: 'x', oklch: 'x', cmyk: 'cmyk(0% 100% 100% 0%)' });
    assert.ok(colour.kind === 'record');
    assert.deepEqual(colour.entries.map((entry) => entry.view.kind === 'value' && entry.view.color === true), [true, true, false, false, false, false]);
    assert.deepEqual(viewOf({ type: 'string' }, '2018-01-18T01:30:22.000Z'), { kind: 'value', text: '2018-01-18T01:30:22.000Z', instant: '2018-01-18T01:30:22.000Z' });
  });

  it('marks colour fields for a picker and finds a body\'s main field', () => {
    const form = formOf(schemas(colors, 'contrast').body);
    assert.deepEqual(['foreground', 'background'].map((name) => { const field = member(form, name); return field.kind === 'text' && field.color === true; }), [true, true]);
    assert.equal(mainField(formOf(schemas(qr, 'text').body))?.pointer, '/text');
  });
});
