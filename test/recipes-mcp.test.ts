// Recipes and identify as MCP tools (issue 40), seen with the SDK's own client over Streamable HTTP:
// the recipe tool, the identify tool and one tool per saved recipe, answering the issue's examples
// as POST /v1/recipes/… does, refusals as tool errors naming the place.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { connectMcpClient } from './support/mcp-client.js';
import { ISSUE_46_EXAMPLES, JWT_ANSWER, JWT_BASE64, JWT_LAYERS, SAVED } from './support/recipes.js';
import { buildTestService, type InProcessService } from './support/service.js';

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

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const refusal = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; details?: { path: string; message: string }[] } };

describe('recipes over MCP', () => {
  it('lists the recipe tool, the identify tool and one tool per saved recipe', () => {
    const names = tools.map((tool) => tool.name);
    for (const name of ['recipes_run', 'recipes_identify', 'recipes_jwt-in-base64']) assert.ok(names.includes(name), name);
    const recipe = tools.find((tool) => tool.name === 'recipes_run')!;
    assert.match(recipe.description ?? '', /out of the caller's \(or an agent's\) context/);
    assert.equal(tools.find((tool) => tool.name === 'recipes_jwt-in-base64')?.description?.split('.')[0], 'Decode a JWT wrapped in Base64');
  });

  it('runs the issue\'s recipe, with default wiring, in one call', async () => {
    const result = await call('recipes_run', { input: JWT_LAYERS, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, { result: JWT_ANSWER });
  });

  it('answers a recipe that does not fit with a tool error naming each place, and a failing step with its code and step', async () => {
    const unfit = await call('recipes_run', { input: 'x', steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decod' }] });
    assert.equal(unfit.isError, true);
    assert.deepEqual(refusal(unfit).error.details, [{ path: '/steps/1/operation', message: 'is not an operation; did you mean "base64/decode"?' }]);
    const failing = await call('recipes_run', { input: 'not base64!', steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });
    assert.equal(failing.isError, true);
    assert.equal(refusal(failing).error.code, 'invalid_base64');
    assert.equal(refusal(failing).error.details?.[0]?.path, '/steps/0');
  });

  it('identifies the three layers, and the recipe it answers runs as given', async () => {
    const result = await call('recipes_identify', { input: JWT_LAYERS });
    const [best] = (result.structuredContent as { candidates: { recipe: { steps: unknown[] }; preview: unknown }[] }).candidates;
    assert.deepEqual(best?.preview, JWT_ANSWER);
    assert.deepEqual((await call('recipes_run', { input: JWT_LAYERS, ...best!.recipe })).structuredContent, { result: JWT_ANSWER });
  });

  it('answers issue 46\'s examples as they should be', async () => {
    for (const example of ISSUE_46_EXAMPLES) {
      const result = await call('recipes_identify', { input: example.input });
      assert.equal(result.isError, undefined, example.name);
      const [best] = (result.structuredContent as { candidates: { kind: string; recipe: { steps: unknown[] }; preview: unknown }[] }).candidates;
      assert.deepEqual({ kind: best?.kind, recipe: best?.recipe, preview: best?.preview }, example.best, example.name);
    }
  });

  it('runs a saved recipe as its own tool, taking {input}', async () => {
    const result = await call('recipes_jwt-in-base64', { input: JWT_BASE64 });
    assert.deepEqual(result.structuredContent, JWT_ANSWER);
    const full = (await call('toolshed-describe', { name: 'recipes_jwt-in-base64' })).structuredContent as unknown as Tool;
    assert.deepEqual(full.inputSchema.required, ['input']);
  });
});
