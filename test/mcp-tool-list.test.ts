// The default tools/list as a model reads it, seen with the SDK's own client over HTTP, for every
// built-in plugin: small enough to read before doing anything, plain objects at the top of every
// input schema, every argument described, the same checks as the OpenAPI document, and the full
// definition one `describe` call away.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { connectMcpClient } from './support/mcp-client.js';
import { buildTestService, type InProcessService } from './support/service.js';

/** The budget for the whole default list: every built-in, the describe tool, the recipe and identify tools. */
const LIST_BUDGET = 48 * 1024;
/** What the recipe and identify tools (and saved recipes, when configured) are given of it. */
const RECIPE_TOOLS = 4 * 1024;

type Schema = Record<string, unknown>;
type Document = { paths: Record<string, { post: { description?: string; requestBody: { content: { 'application/json': { schema: Schema } } }; responses: { 200: { content: { 'application/json': { schema: Schema } } } } } }> };

let service: InProcessService;
let client: Client;
let listed: { tools: Tool[] };
let document: Document;

before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
  client = await connectMcpClient(service.url);
  listed = await client.listTools();
  document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as Document;
});
after(async () => {
  await client.close();
  await service.stop();
});

const operationTools = (): Tool[] => listed.tools.filter((tool) => tool.name !== 'toolshed-describe');
const postOf = (tool: Tool) => document.paths[`/v1/${tool.name.replace('_', '/')}`]!.post;
const requestSchemaOf = (tool: Tool): Schema => postOf(tool).requestBody.content['application/json'].schema;
const full = async (name: string): Promise<Tool> => (await client.callTool({ name: 'toolshed-describe', arguments: { name } })).structuredContent as unknown as Tool;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const RULE_KEYS = ['required', 'properties', 'if', 'not'];
/** A rule across fields: no type, enum or constant of its own, and constraining named fields (or a union of such). */
const isRule = (node: unknown): boolean =>
  isSchema(node) && !('type' in node) && !('enum' in node) && !('const' in node) && (RULE_KEYS.some((key) => key in node) || (Array.isArray(node.anyOf ?? node.oneOf) && ((node.anyOf ?? node.oneOf) as unknown[]).every(isRule)));
/** The listed schema's "any JSON value". */
const ANY_VALUE = JSON.stringify(['string', 'number', 'boolean', 'object', 'array', 'null']);

/**
 * A schema's checks, as both the OpenAPI document and the list write them: annotations removed; a
 * constant, a union of constants and a union of one-type enums read as the one `enum` they equal
 * (its `type` implied by its values); the rules across fields and pattern properties inside left
 * out (mcp.md: the server checks them, the descriptions word them); a union of every JSON type read
 * as no constraint; `oneOf` of typed forms read as the `anyOf` the list writes.
 */
function checks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(checks);
  if (!isSchema(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (['description', 'examples', 'title', 'default', '$comment', 'patternProperties', 'if', 'then', 'else', 'not'].includes(key)) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, field]) => [name, checks(field)]));
    else if (key === 'const') out.enum = [value];
    else if (key === 'allOf') {
      const kept = (value as unknown[]).filter((entry) => !isRule(entry));
      if (kept.length > 0) out.allOf = checks(kept);
    } else if (key === 'anyOf' || key === 'oneOf') {
      const branches = value as Schema[];
      if (branches.every(isRule)) continue;
      if (JSON.stringify(branches.map((branch) => branch.type)) === ANY_VALUE) continue;
      if (branches.every((branch) => 'const' in branch || 'enum' in branch)) out.enum = branches.flatMap((branch) => ('const' in branch ? [branch.const] : (branch.enum as unknown[])));
      else out.anyOf = checks(branches);
    } else out[key] = checks(value);
  }
  if ('enum' in out) delete out.type;
  if (isSchema(node.patternProperties) && out.additionalProperties === false) delete out.additionalProperties;
  return out;
}

/** The schema without its `pattern`s longer than 80 characters (the ones the list leaves to `toolshed-describe`). */
function withoutLongPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLongPatterns);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).filter(([key, value]) => !(key === 'pattern' && typeof value === 'string' && value.length > 80));
  return Object.fromEntries(entries.map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as Schema).map(([name, field]) => [name, withoutLongPatterns(field)])) : withoutLongPatterns(value)]));
}

describe('the default tools/list (every built-in plugin)', () => {
  it(`is at most ${LIST_BUDGET} bytes with the recipe and identify tools, the built-ins alone at most ${LIST_BUDGET - RECIPE_TOOLS}`, async () => {
    const raw = await send(service.url, '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { Accept: 'application/json, text/event-stream' } });
    const result = (raw.json as { result: { tools: Tool[] } }).result;
    const bytes = Buffer.byteLength(JSON.stringify(result));
    assert.ok(bytes <= LIST_BUDGET, `the list is ${bytes} bytes`);
    const recipes = result.tools.filter((tool) => tool.name.startsWith('recipes_'));
    assert.deepEqual(recipes.map((tool) => tool.name), ['recipes_run', 'recipes_identify']);
    const builtins = Buffer.byteLength(JSON.stringify({ tools: result.tools.filter((tool) => !recipes.includes(tool)) }));
    assert.ok(builtins <= LIST_BUDGET - RECIPE_TOOLS, `the built-ins' list is ${builtins} bytes`);
    // What the SDK's client hands its user is the same list.
    assert.deepEqual(listed, result);
    assert.equal(operationTools().length, Object.keys(document.paths).filter((path) => path.split('/').length === 4).length);
  });

  it('has a plain object at the top of every input schema: no allOf, anyOf, oneOf, not or if there', () => {
    for (const tool of listed.tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      for (const key of ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']) assert.ok(!(key in tool.inputSchema), `${tool.name} has ${key} at the top`);
    }
  });

  it('describes every top-level argument of every tool', () => {
    for (const tool of listed.tools) {
      for (const [name, field] of Object.entries(tool.inputSchema.properties ?? {})) {
        const description = (field as Schema).description;
        assert.ok(typeof description === 'string' && description.trim().length > 0, `${tool.name}.${name} has no description`);
      }
    }
  });

  it('checks what the OpenAPI document checks, leaving out only rules it words and long patterns it points to', () => {
    // The four with a rule across fields at the top of their OpenAPI schema; each says where it is.
    const rulesLeftOut: string[] = [];
    for (const tool of operationTools()) {
      const openapi = { ...requestSchemaOf(tool) };
      const top = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'].filter((key) => key in openapi);
      if (top.length > 0) {
        rulesLeftOut.push(tool.name);
        for (const key of top) delete openapi[key];
        assert.match(tool.description ?? '', /A rule across fields, worded in their descriptions, is checked too; `toolshed-describe` gives the full schema\./, tool.name);
      }
      assert.deepEqual(checks(tool.inputSchema), checks(withoutLongPatterns(openapi)), tool.name);
      // A field whose pattern is left out says where it is.
      for (const [name, field] of Object.entries(openapi.properties as Record<string, Schema>)) {
        if (typeof field.pattern === 'string' && field.pattern.length > 80) assert.match((tool.inputSchema.properties![name] as Schema).description as string, /\(the exact pattern: toolshed-describe\)$/, `${tool.name}.${name}`);
      }
    }
    assert.deepEqual(rulesLeftOut.sort(), ['hash-generator_hash', 'lorem-ipsum_generate', 'password-generator_password', 'unit-converter_convert']);
  });

  it('words each left-out rule in the fields it binds, and the server still enforces it (a 400 naming them)', async () => {
    const properties = (name: string) => listed.tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, Schema>;
    assert.match(properties('hash-generator_hash').text!.description as string, /exactly one of text and dataBase64 must be given/);
    assert.match(properties('hash-generator_hash').dataBase64!.description as string, /exactly one of text and dataBase64 must be given/);
    assert.match(properties('lorem-ipsum_generate').count!.description as string, /must be at most 200 when unit is paragraphs or sentences/);
    for (const field of ['lowercase', 'uppercase', 'digits', 'symbols']) assert.match(properties('password-generator_password')[field]!.description as string, /at least one of lowercase, uppercase, digits and symbols must be true/);
    for (const field of ['from', 'to']) assert.match(properties('unit-converter_convert')[field]!.description as string, /must be a unit of category/);
    const calls: [string, string, Record<string, unknown>, string[]][] = [
      ['hash-generator_hash', '/v1/hash-generator/hash', { text: 'a', dataBase64: 'YQ==' }, ['/dataBase64', '/text']],
      ['lorem-ipsum_generate', '/v1/lorem-ipsum/generate', { unit: 'paragraphs', count: 201 }, ['/count']],
      ['password-generator_password', '/v1/password-generator/password', { lowercase: false, uppercase: false, digits: false, symbols: false }, ['/digits', '/lowercase', '/symbols', '/uppercase']],
      ['unit-converter_convert', '/v1/unit-converter/convert', { value: 1, category: 'length', from: 'kg' }, ['/from']],
    ];
    for (const [name, path, args, paths] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const post = await send(service.url, path, { body: args });
      assert.equal(post.status, 400, name);
      assert.equal(result.isError, true, name);
      const body = JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; details: { path: string }[] } };
      assert.deepEqual(body, post.json, name);
      assert.deepEqual([...new Set(body.error.details.map((detail) => detail.path))].sort(), paths, name);
    }
  });

  it('says of the JWT decoder that status is the time window only and the signature was not checked', async () => {
    const words = /time window only — the signature was not checked/;
    const tool = listed.tools.find((candidate) => candidate.name === 'jwt-decoder_decode')!;
    assert.match(tool.description ?? '', words);
    assert.match(postOf(tool).description ?? '', words);
    const status = (postOf(tool).responses[200].content['application/json'].schema.properties as Record<string, Schema>).status!;
    assert.match(status.description as string, /^Time window only — the signature was not checked/);
    assert.deepEqual(((await full('jwt-decoder_decode')).outputSchema!.properties as Record<string, Schema>).status, status);
  });
});

describe('the describe tool', () => {
  it('gives each tool in full: the schemas exactly as the OpenAPI document has them, a worked example and the refusal codes', async () => {
    for (const tool of operationTools()) {
      const definition = await full(tool.name);
      const post = postOf(tool);
      assert.deepEqual(definition.inputSchema, requestSchemaOf(tool), tool.name);
      assert.deepEqual(definition.outputSchema, post.responses[200].content['application/json'].schema, tool.name);
    }
    const encode = await full('base64_encode');
    assert.match(encode.description ?? '', /^Encode UTF-8 text as Base64\.[\s\S]*Example: \{"text":"foobar"\} gives \{"base64":"Zm9vYmFy"\}/);
    assert.deepEqual(encode.annotations, { title: 'Encode UTF-8 text as Base64', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    assert.match((await full('base64_decode')).description ?? '', /Refuses with: invalid_base64 \(/);
  });

  it('names the nearest tool for a mistyped name, and refuses arguments it does not take as a 400 would', async () => {
    const unknown = (await client.callTool({ name: 'toolshed-describe', arguments: { name: 'base64_encod' } })) as CallToolResult;
    assert.equal(unknown.isError, true);
    assert.deepEqual(JSON.parse((unknown.content[0] as { text: string }).text), { error: { code: 'not_found', message: 'There is no tool "base64_encod"; did you mean "base64_encode"? tools/list names them all' } });
    const wrong = (await client.callTool({ name: 'toolshed-describe', arguments: { tool: 'base64_encode' } })) as CallToolResult;
    assert.deepEqual(JSON.parse((wrong.content[0] as { text: string }).text).error.details, [
      { path: '/name', message: 'is required' },
      { path: '/tool', message: 'is not an allowed property; allowed: name' },
    ]);
  });
});
