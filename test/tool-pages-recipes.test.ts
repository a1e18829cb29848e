// The tool pages' recipe logic, in Node (tool-pages/shared/recipes.ts, tool-pages/recipe-data.ts):
// which operation may follow which by the manifests' main fields, "send this answer to…" as a
// recipe, the recipe in an address's fragment, identify's candidates as links, confidence in words.
// The schemas are the real manifests' (as the OpenAPI document carries them); the browser test
// (test/browser/tool-pages-recipes.test.ts) runs the pages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operationContract, type Plugin } from '@toolshed/plugin-sdk';
import base64 from '../plugins/base64/index.js';
import jwt from '../plugins/jwt-decoder/index.js';
import hashes from '../plugins/hash-generator/index.js';
import { catalogOf } from '../tool-pages/catalog.js';
import { linkTargets, nextSteps, recipePageData } from '../tool-pages/recipe-data.js';
import { candidateLink, confidenceWords, fits, recipeAddress, recipeFragment, recipeFromFragment, sendTo, valueTypes } from '../tool-pages/shared/recipes.js';
import type { Schema } from '../tool-pages/shared/schema.js';

const json = (value: unknown): Schema => JSON.parse(JSON.stringify(value)) as Schema;

/** The document's entry for `plugin`'s operation `name`, with its manifest's io as `x-io` (kernel/http/openapi.ts). */
function entry(plugin: Plugin, name: string): [string, unknown] {
  const contract = operationContract(plugin, name);
  const definition = plugin.operations[name]!;
  const example = definition.examples[0]!;
  const content = { 'application/json': { schema: json(contract.requestSchema), examples: { example1: { summary: example.title ?? 'Example', value: example.body } } } };
  return [`/v1/${plugin.group}/${name}`, { post: { summary: definition.summary, requestBody: { content }, responses: { '200': { content: { 'application/json': { schema: json(contract.responseSchema) } } } }, ...(definition.io ? { 'x-io': definition.io } : {}) } }];
}

const catalog = catalogOf({
  tags: [{ name: 'base64', 'x-title': 'Base64 encoder' }, { name: 'jwt-decoder', 'x-title': 'JWT decoder' }, { name: 'hash-generator', 'x-title': 'Hash generator' }, { name: 'recipes' }],
  paths: Object.fromEntries([
    entry(base64, 'encode'),
    entry(base64, 'decode'),
    entry(jwt, 'decode'),
    entry(hashes, 'hash'),
    // A composite: no x-io, so never a step and never offered.
    ['/v1/recipes/run', { post: { summary: 'Run a recipe', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { input: {} } } } } }, responses: { '200': {} } } }],
  ]),
});
const tool = (page: string) => catalog.pages.get(page)!;

describe('which operation may follow which', () => {
  it('reads JSON types from schemas as the recipe check does: integer is number, no type is any', () => {
    assert.deepEqual([...valueTypes({ type: 'integer' })], ['number']);
    assert.deepEqual([...valueTypes({ anyOf: [{ type: 'string' }, { const: 3 }] })].sort(), ['number', 'string']);
    assert.equal(valueTypes({}).size, 6);
  });

  it('offers base64/decode\'s text to every operation whose main input takes a string, and a JWT\'s payload (an object) to none of them', () => {
    assert.deepEqual(tool('/tools/base64/decode').io, { input: 'base64', output: 'text' });
    assert.deepEqual(nextSteps(tool('/tools/base64/decode'), catalog), [
      { name: 'base64/decode', label: 'Base64 encoder: decode' },
      { name: 'base64/encode', label: 'Base64 encoder: encode' },
      { name: 'hash-generator/hash', label: 'Hash generator: hash' },
      { name: 'jwt-decoder/decode', label: 'JWT decoder: decode' },
    ]);
    // jwt-decoder/decode hands on `payload`, an object; every main input here is a string.
    assert.equal(fits(tool('/tools/jwt-decoder/decode').response, 'payload', tool('/tools/base64/encode').body, 'text'), false);
    assert.deepEqual(nextSteps(tool('/tools/jwt-decoder/decode'), catalog), []);
    // A field the schema does not have fits nothing.
    assert.equal(fits(tool('/tools/base64/decode').response, 'nope', tool('/tools/base64/encode').body, 'text'), false);
  });

  it('gives the recipe page every operation with main fields, its example without the main input, and identify its pages and main inputs', () => {
    const { operations } = recipePageData(catalog);
    assert.deepEqual(operations.map((operation) => operation.name), ['base64/decode', 'base64/encode', 'hash-generator/hash', 'jwt-decoder/decode']);
    const hash = operations.find((operation) => operation.name === 'hash-generator/hash')!;
    assert.equal(hash.fields[0], 'text', 'required fields first');
    assert.equal(hash.example !== undefined && 'text' in hash.example, false, 'the main input is left to the wiring');
    assert.deepEqual(linkTargets(catalog)['jwt-decoder/decode'], { page: '/tools/jwt-decoder/decode', input: 'token' });
    assert.deepEqual(linkTargets(catalog)['recipes/run'], { page: '/tools/recipes/run' });
  });

  it('lists the service\'s own recipes group under Recipes, after every plugin category', () => {
    assert.deepEqual(catalog.categories.map((category) => [category.name, category.groups.map((group) => group.name)]), [['Recipes', ['recipes']], ['Other tools', ['base64', 'hash-generator', 'jwt-decoder']]]);
  });
});

describe('recipes in addresses', () => {
  it('sends an answer on as [this operation on its input, the next], the main input as the recipe\'s input', () => {
    assert.deepEqual(sendTo('base64/decode', { input: 'base64', output: 'text' }, { base64: 'aGk=' }, 'jwt-decoder/decode'), {
      input: 'aGk=',
      steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }],
    });
    // The other fields stay in the first step's body.
    assert.deepEqual(sendTo('hash-generator/hash', { input: 'text', output: 'hashes' }, { text: 'a', algorithms: ['MD5'] }, 'x/y'), {
      input: 'a',
      steps: [{ operation: 'hash-generator/hash', body: { algorithms: ['MD5'] } }, { operation: 'x/y' }],
    });
    // An operation without a main input: its whole body, and no recipe input.
    assert.deepEqual(sendTo('password-generator/password', { output: 'passwords' }, { length: 8 }, 'x/y'), { steps: [{ operation: 'password-generator/password', body: { length: 8 } }, { operation: 'x/y' }] });
  });

  it('carries a recipe in the fragment and reads back only the shape a recipe has', () => {
    const recipe = { input: 'a&b=c#d', steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode', body: { base64: { $from: '/steps/0/decoded' } } }] };
    const fragment = recipeFragment(recipe);
    assert.match(fragment, /^#recipe=[A-Za-z0-9%\-_.!~*'()]+$/, 'percent-encoded: no # or & of the input left bare');
    assert.deepEqual(recipeFromFragment(fragment), recipe);
    assert.equal(recipeAddress(recipe), `/tools/recipes/run${fragment}`);
    assert.equal(recipeFromFragment('#input=%7B%7D'), undefined);
    assert.equal(recipeFromFragment('#recipe=%7Bnot json'), undefined);
    assert.equal(recipeFromFragment('#recipe=%5B%5D'), undefined, 'an array is no recipe');
    // Steps without an operation name are dropped; a body that is not an object is left out.
    assert.deepEqual(recipeFromFragment(recipeFragment({ steps: [{ operation: 'a/b', body: 'x' }, { body: {} }] } as never)), { steps: [{ operation: 'a/b' }] });
  });

  it('opens a one-step candidate on its tool, filled; anything longer, or wired to a step, on the recipe page', () => {
    const targets = linkTargets(catalog);
    const token = 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln';
    assert.equal(candidateLink([{ operation: 'jwt-decoder/decode' }], token, targets), `/tools/jwt-decoder/decode#input=${encodeURIComponent(JSON.stringify({ token }))}`);
    // A recognizer that fills another field than the main one: its $from is replaced by the input.
    assert.equal(
      candidateLink([{ operation: 'hash-generator/hash', body: { text: { $from: '/input' }, algorithms: ['MD5'] } }], 'x', targets),
      `/tools/hash-generator/hash#input=${encodeURIComponent(JSON.stringify({ text: 'x', algorithms: ['MD5'] }))}`,
    );
    const steps = [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }];
    assert.equal(candidateLink(steps, 'ZXk=', targets), recipeAddress({ input: 'ZXk=', steps }));
    const wired = [{ operation: 'base64/decode', body: { base64: { $from: '/steps/0/x' } } }];
    assert.equal(candidateLink(wired, 'ZXk=', targets), recipeAddress({ input: 'ZXk=', steps: wired }));
    // An operation the page does not know goes to the recipe page, which names the nearest.
    assert.equal(candidateLink([{ operation: 'nope/nope' }], 'x', targets), recipeAddress({ input: 'x', steps: [{ operation: 'nope/nope' }] }));
  });

  it('says a confidence in words with its figure', () => {
    assert.deepEqual([0.97, 0.85, 0.6, 0.3].map(confidenceWords), ['Almost certainly (97 % sure)', 'Probably (85 % sure)', 'Maybe (60 % sure)', 'Unlikely (30 % sure)']);
  });
});
