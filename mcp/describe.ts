/**
 * The `toolshed-describe` tool: the full definition of any tool, for a model that needs more than
 * the short entry tools/list gives (a worked example, the refusal codes, the output schema, a rule
 * across fields the listed schema leaves out). Its name has no `_`, so no operation's tool
 * (`<group>_<operation>`) can take it, and it says whose it is, so a host that puts several
 * servers' tools side by side without a prefix does not meet a second `describe`.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorDetail, TSchema } from '@toolshed/plugin-sdk';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import { DESCRIBE_TOOL } from './compact-schema.js';
import { callResult, toolError } from './results.js';
import { nearestTool } from './tools.js';

export { DESCRIBE_TOOL };

/** Its entry in tools/list. */
export const describeTool: Tool = {
  name: DESCRIBE_TOOL,
  description:
    'The full definition of one of this server\'s tools: its input schema exactly as the server checks it (rules ' +
    'across fields included), its output schema, a worked example and the error codes it may answer. Call it ' +
    'before a tool whose entry says a rule or pattern is left to it, when you need an example or the answer\'s ' +
    'shape, or after a refusal its details do not explain; not before every call.',
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', description: 'A tool name as tools/list gives it, for example base64_encode' } },
    required: ['name'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** The describe tool's arguments, checked as an operation's body is. */
const argumentsSchema = compileSchema(describeTool.inputSchema as unknown as TSchema);

/** Why `args` are not `{ name: string }`, in the API's 400 details (the SDK's words, a typo's nearest field named); undefined when they are. */
function problems(args: Record<string, unknown>): ErrorDetail[] | undefined {
  const found = argumentsSchema.problems(args);
  return found.length > 0 ? found : undefined;
}

/**
 * The answer of `toolshed-describe` out of the full definitions `full` (the describe tool's own
 * included), as a call result's JSON text. A tool's result is written at its first call and kept:
 * a definition is a plugin's text, as long as its manifest makes it, and is the same at every call.
 */
export function describer(full: ReadonlyMap<string, Tool>): (args: Record<string, unknown>) => string {
  const written = new Map<string, string>();
  return (args) => {
    const details = problems(args);
    if (details !== undefined) return toolError({ code: 'validation_failed', message: 'The request body does not match the schema', details });
    const name = args.name as string;
    const tool = full.get(name);
    if (tool === undefined) {
      const close = nearestTool(name, [...full.keys()]);
      const hint = close === undefined ? '' : `; did you mean "${close}"?`;
      return toolError({ code: 'not_found', message: `There is no tool ${JSON.stringify(name.slice(0, 200))}${hint} tools/list names them all` });
    }
    let result = written.get(name);
    if (result === undefined) {
      result = callResult(JSON.stringify(tool));
      written.set(name, result);
    }
    return result;
  };
}
