import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { constraintsOf, fieldsOf, renderApiMarkdown, typeOf, type ApiDocument } from '../cli/reference/api-markdown.js';
import { apiMarkdownFile, currentApiMarkdown } from '../cli/reference/write-api-docs.js';

describe('docs/api.md', () => {
  it('is what the manifests say now (run `npm run docs` after changing a manifest)', async () => {
    const committed = await readFile(apiMarkdownFile, 'utf8');
    assert.ok(committed === (await currentApiMarkdown()), 'docs/api.md is stale: run `npm run docs` and commit it');
  });

  it('names every operation of the contract once, and recipes/run and recipes/identify', async () => {
    const markdown = await currentApiMarkdown();
    assert.equal(markdown.match(/^### <a id="[^"]+"><\/a>`POST \/v1\/[a-z0-9-]+\/[a-z0-9-]+`$/gm)?.length, 58 + 2);
  });
});

describe('the API reference renderer', () => {
  it('reads types, unions of literals, enums and arrays as a reader would say them', () => {
    assert.equal(typeOf({ type: 'string' }), 'string');
    assert.equal(typeOf({ anyOf: [{ const: 'md5' }, { const: 'sha1' }] }), 'one of `"md5"`, `"sha1"`');
    assert.equal(typeOf({ enum: [1, 2] }), 'one of `1`, `2`');
    assert.equal(typeOf({ type: 'array', items: { type: 'integer' } }), 'array of integer');
    assert.equal(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] }), 'string or null');
  });

  it('lists bounds in one order, with those of array items', () => {
    assert.equal(constraintsOf({ type: 'integer', minimum: 1, maximum: 64 }), '≥ 1, ≤ 64');
    assert.equal(constraintsOf({ type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-z]+$' }), 'length ≥ 1, length ≤ 10, matches `^[a-z]+$`');
    assert.equal(constraintsOf({ type: 'array', maxItems: 3, items: { type: 'string', maxLength: 5 } }), 'items ≤ 3, each: length ≤ 5');
    // A long pattern is left to the OpenAPI document: the description says it in words (issue 39).
    const long = `^${'(?:[0-9]{2})'.repeat(4)}$`;
    assert.equal(constraintsOf({ type: 'string', maxLength: 10, pattern: long, description: 'Eight digits' }), 'length ≤ 10');
    assert.equal(constraintsOf({ type: 'string', pattern: long }), 'matches a pattern (in the OpenAPI document)');
  });

  it('flattens nested objects and objects inside arrays with dots', () => {
    const schema = {
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } },
        list: { type: 'array', items: { type: 'object', properties: { c: { type: 'number' } } } },
      },
    };
    assert.deepEqual(
      fieldsOf(schema).map(({ path, required }) => [path, required]),
      [['a', true], ['a.b', true], ['list', false], ['list[].c', false]],
    );
  });

  it('renders an operation with its fields, answers and example', () => {
    const document: ApiDocument = {
      info: { title: 'T', version: '1' },
      tags: [{ name: 'g', description: 'The g group' }],
      components: { responses: { '400': { description: 'Bad input' } } },
      paths: {
        '/v1/g/op': {
          post: {
            operationId: 'g.op',
            tags: ['g'],
            summary: 'Does op',
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0, default: 2, description: 'How many | which' } } },
                  examples: { example1: { value: { n: 3 } } },
                },
              },
            },
            responses: {
              '200': { description: 'Success', content: { 'application/json': { schema: { type: 'object', properties: { twice: { type: 'integer' } } }, example: { twice: 6 } } } },
              '400': { $ref: '#/components/responses/400' },
            },
          },
        },
      },
    };
    const lines = renderApiMarkdown(document).split('\n');
    // Required in the schema but defaulted: a client may leave it out.
    assert.ok(lines.includes('| `n` | integer | no | `2` | ≥ 0 | How many \\| which |'));
    assert.ok(lines.includes('| `twice` | integer |  |'));
    assert.ok(lines.includes('| 400 | Bad input |'));
    assert.ok(lines.includes(`curl -s http://127.0.0.1:8080/v1/g/op -H 'Content-Type: application/json' -d '{"n":3}'`));
    assert.ok(lines.includes('- **g**: [op](#v1-g-op)'));
    assert.ok(lines.includes('The g group'));
  });
});
