// The listed tools against what the model clients document of a tool (mcp/client-rules.ts: the
// Gemini CLI's discovery, the Gemini API's schema subset, OpenAI's function schemas, Anthropic's
// input_schema, MCP's own), over the whole default list — every built-in, the recipe and identify
// tools, a saved recipe and toolshed-describe — as the SDK's client receives it. Each rule is also
// shown to fire, so a rule that stopped checking would fail here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { clientRuleBreaks, describeBreak } from '../mcp/client-rules.js';
import { connectMcpClient } from './support/mcp-client.js';
import { SAVED } from './support/recipes.js';
import { buildTestService, type InProcessService } from './support/service.js';

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

let service: InProcessService;
let client: Client;
let tools: Tool[];
before(async () => {
  service = await buildTestService({ recipes: SAVED }, { builtinDir: builtinPluginDir });
  client = await connectMcpClient(service.url);
  tools = (await client.listTools()).tools;
});
after(async () => {
  await client.close();
  await service.stop();
});

/**
 * The Gemini CLI's discovery test as its documentation words it, written here apart from the
 * service's: a node without a `type` passes only as an anyOf/allOf/oneOf whose every branch passes;
 * an object's properties and an array's items are looked into. A tool that fails is skipped.
 */
function geminiCliKeeps(schema: unknown): boolean {
  if (!isSchema(schema)) return true;
  if (!schema.type) {
    const lists = ['anyOf', 'allOf', 'oneOf'].map((key) => schema[key]).filter(Array.isArray);
    if (lists.length === 0 || !lists.every((list) => list.every(geminiCliKeeps))) return false;
  }
  if (schema.type === 'object' && isSchema(schema.properties) && !Object.values(schema.properties).every(geminiCliKeeps)) return false;
  if (schema.type === 'array' && schema.items !== undefined && !geminiCliKeeps(schema.items)) return false;
  return true;
}

/** Every schema node below (and at) `node`, through properties, items and unions. */
function nodes(node: unknown, found: Schema[] = []): Schema[] {
  if (!isSchema(node)) return found;
  found.push(node);
  if (isSchema(node.properties)) for (const child of Object.values(node.properties)) nodes(child, found);
  nodes(node.items, found);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[key])) for (const child of node[key] as unknown[]) nodes(child, found);
  return found;
}

describe('the default tools/list against the clients’ documented rules', () => {
  it('has no tool any client must skip or refuse: built-ins, recipe tools, a saved recipe and toolshed-describe', () => {
    const names = tools.map((tool) => tool.name);
    for (const name of ['recipes_run', 'recipes_identify', 'recipes_jwt-in-base64', 'toolshed-describe', 'qr-code-generator_create']) assert.ok(names.includes(name), name);
    assert.deepEqual(tools.flatMap((tool) => clientRuleBreaks(tool).map((found) => `${tool.name}: ${describeBreak(found)}`)), []);
    assert.deepEqual(tools.filter((tool) => !geminiCliKeeps(tool.inputSchema)).map((tool) => tool.name), [], 'the Gemini CLI keeps every tool');
  });

  it('types every enum with its values’ one type, and lists no const, if/then/else, $ref or patternProperties anywhere', () => {
    for (const tool of tools) {
      for (const node of nodes(tool.inputSchema)) {
        for (const key of ['const', 'if', 'then', 'else', '$ref', 'patternProperties', 'not']) assert.ok(!(key in node), `${tool.name} lists ${key}`);
        if (!Array.isArray(node.enum)) continue;
        assert.equal(typeof node.type, 'string', `${tool.name}: an enum without a type`);
        const kinds = new Set(node.enum.map((value) => (Number.isInteger(value) ? 'integer' : typeof value)));
        assert.deepEqual([...kinds], [node.type], `${tool.name}: enum ${JSON.stringify(node.enum)} of type ${String(node.type)}`);
      }
    }
    const property = (tool: string, name: string): Schema => (tools.find((candidate) => candidate.name === tool)!.inputSchema.properties as Record<string, Schema>)[name]!;
    // The contract's indent takes the numbers 2 and 4 or the string "tab": two one-type enums.
    assert.deepEqual(property('json-formatter_format', 'indent').anyOf, [
      { type: 'integer', enum: [2, 4] },
      { type: 'string', enum: ['tab'] },
    ]);
    assert.deepEqual(property('data-converter_convert', 'from').type, 'string');
    // Any JSON value, said in types a client can read.
    assert.deepEqual((property('recipes_run', 'input').anyOf as Schema[]).map((form) => form.type), ['string', 'number', 'boolean', 'object', 'array', 'null']);
    const body = ((property('recipes_run', 'steps').items as Schema).properties as Record<string, Schema>).body!;
    assert.equal(body.type, 'object');
    assert.equal(body.additionalProperties, undefined, 'a step body names any field of its operation');
    // The QR code's content: four object forms told apart by an enum of one, a cross-field rule worded in the form's description.
    const forms = property('qr-code-generator_create', 'content').anyOf as Schema[];
    assert.deepEqual(forms.map((form) => ((form.properties as Record<string, Schema>).type as Schema).enum), [['text'], ['wifi'], ['contact'], ['email']]);
    assert.equal(forms[1]!.description, 'password must be empty when security is nopass');
    assert.match(forms[2]!.description as string, /^at least one of firstName, lastName, organization, email, phone and website must not be empty$/);
  });

  it('accepts every example body the server accepts (a client that checks arguments by the listed schema lets them through)', async () => {
    const ajv = new Ajv2020({ strict: false });
    let checked = 0;
    for (const { operation } of service.registry.operations.values()) {
      const tool = tools.find((candidate) => candidate.name === `${operation.group}_${operation.name}`)!;
      const validate = ajv.compile(tool.inputSchema);
      for (const example of operation.definition.examples) {
        assert.ok(validate(example.body), `${tool.name} ${JSON.stringify(example.body).slice(0, 120)}: ${ajv.errorsText(validate.errors)}`);
        checked++;
      }
    }
    assert.ok(checked >= 100, `${checked} examples`);
    // Values of every JSON type for "any value", and a wifi network whose rule the list leaves to the server.
    const recipe = ajv.compile(tools.find((tool) => tool.name === 'recipes_run')!.inputSchema);
    for (const input of ['text', 5, 2.5, true, null, { a: 1 }, ['a', 1, { b: 2 }]]) assert.ok(recipe({ input, steps: [{ operation: 'base64/encode' }] }), JSON.stringify(input));
  });
});

describe('each rule', () => {
  const tool = (inputSchema: Schema, name = 'demo_tool'): Tool => ({ name, inputSchema: inputSchema as Tool['inputSchema'] });
  const rulesOf = (candidate: Tool): string[] => [...new Set(clientRuleBreaks(candidate).map((found) => found.rule))];
  const plain = { type: 'object', properties: { a: { type: 'string' } } };

  it('passes a plain object schema', () => {
    assert.deepEqual(rulesOf(tool(plain)), []);
  });

  it('fires on what the clients document, naming the rule, its clients and the place', () => {
    assert.deepEqual(rulesOf(tool(plain, 'demo.tool')), ['tool-name']);
    assert.deepEqual(rulesOf(tool(plain, 'x'.repeat(65))), ['tool-name']);
    assert.deepEqual(rulesOf(tool({ type: 'object', anyOf: [plain] })), ['object-at-top']);
    assert.deepEqual(rulesOf(tool({ type: 'string' })), ['object-at-top']);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { enum: ['x'] } } })), ['typed-node', 'enum-of-its-type']);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { description: 'anything' } } })), ['typed-node']);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { type: ['string', 'null'] } } })), ['single-type']);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { type: 'integer', enum: [2, 4, 'tab'] } } })), ['enum-of-its-type']);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { type: 'array' } } })), ['array-items']);
    const reference = clientRuleBreaks(tool({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } }));
    assert.deepEqual(reference.map(describeBreak), [
      'typed-node (Gemini CLI, Gemini API) at /properties/a: has no type (nor a union whose every branch has one)',
      'supported-keywords (Gemini API) at /: uses $defs',
      'supported-keywords (Gemini API) at /properties/a: uses $ref',
    ]);
    assert.deepEqual(rulesOf(tool({ type: 'object', properties: { a: { type: 'object', patternProperties: { '^x': { type: 'string' } } } } })), ['supported-keywords']);
    const conditional = clientRuleBreaks(tool({ type: 'object', properties: { a: { type: 'object', if: { required: ['b'] }, then: { required: ['c'] } } } }));
    assert.deepEqual(conditional.map(describeBreak), ['supported-keywords (Gemini API, OpenAI) at /properties/a: uses if, then']);
  });
});
