/**
 * `toolshed call <group>/<operation> [json | -]`: one operation run in this process, through the
 * pipeline a request takes in the server — the same configuration and plugins, the kernel's JSON
 * parsing (invalid_json with a position), the SDK's defaults and validation, the same error bodies.
 * The work runs where the server would run it: on the worker pool, under workers.requestBudgetMs,
 * for `offload: 'always'` operations and bodies over their offload bound, so an input the server
 * answers with 422 input_too_complex cannot hang the command. What protects a shared server from
 * many clients (body and answer caps, byte budgets, rate limits) does not apply to one local caller.
 */
import { isToolshedError } from '@toolshed/plugin-sdk';
import { answerText, type Config, createLogger, describeFailure, errorObject, groupOfName, nearestOperation, type OperationInfo, type Registry } from '../kernel/host/index.js';
import { EXIT, UsageError, write, type CliIo } from './command.js';
import { loadRegistry, openServiceHost, servedOperations, withConfigFile } from './load.js';

/** An operation's answer as the CLI gives it: the JSON text and the status it would have over HTTP. */
export interface CallAnswer {
  readonly status: number;
  readonly json: string;
}

/** The contract's error body for `error`, as the server's errors middleware writes it. */
export function errorAnswer(error: unknown, operationId: string): CallAnswer {
  if (isToolshedError(error)) {
    return { status: error.status, json: JSON.stringify({ error: errorObject(error) }) };
  }
  // The server hides a bug behind its request id; here the caller is the operator, so name its type.
  const message = `An internal error occurred in ${operationId} (${describeFailure(error).type}); this is a bug in the plugin`;
  return { status: 500, json: JSON.stringify({ error: { code: 'internal_error', message } }) };
}

/**
 * The operation behind `target` (`group/operation`) among `served` (every name the service serves,
 * recipes included), or a usage error naming the nearest.
 */
export function findOperation(registry: Registry, served: readonly string[], target: string): string {
  if (served.includes(target)) return target;
  const group = groupOfName(target);
  if (group !== undefined && registry.disabledGroups.includes(group)) {
    throw new UsageError(`The group ${group} exists but is switched off in this configuration (plugins.enabled, plugins.disabled). "toolshed openapi" lists the operations this configuration serves.`);
  }
  const nearest = nearestOperation(target, [...served].sort());
  const hint = nearest === undefined ? '' : ` Did you mean ${nearest}?`;
  throw new UsageError(`There is no operation "${target}".${hint} "toolshed openapi" lists every operation.`);
}

/**
 * Runs `target` (`group/operation`) on the JSON text `body` through the executor, as the server
 * runs a request (this thread, or the worker pool for `offload: 'always'` operations and large
 * bodies, with the same refusals when the budget or the deadline runs out); never throws for
 * anything the input causes. The host is opened for this one call and closed after it.
 */
export async function runOperation(registry: Registry, target: string, body: Buffer, config: Config): Promise<CallAnswer> {
  const host = await openServiceHost(config, registry, createLogger('silent'));
  const id: OperationInfo['id'] = target.replace('/', '.');
  try {
    return { status: 200, json: answerText(await host.executor.run({ operation: target, bytes: body })) };
  } catch (error) {
    return errorAnswer(error, id);
  } finally {
    await host.close();
  }
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * The command: the answer on stdout (exit 0), or the error body on stderr (exit 1 for a 4xx,
 * 3 for a 5xx). `json` is the body's text, `-` for stdin, or undefined for `{}` (the server refuses an empty body).
 */
export async function callCommand(target: string, json: string | undefined, configFile: string | undefined, io: CliIo): Promise<number> {
  return callWith(target, configFile, io, async () => (json === '-' ? readAll(io.stdin) : Buffer.from(json ?? '{}', 'utf8')));
}

/**
 * Runs `target` on the body `read` gives (read once the operation is known to exist) and prints
 * the answer as `call` does; `recipe run` and `identify` are `call`s of recipes/run and recipes/identify.
 */
export async function callWith(target: string, configFile: string | undefined, io: CliIo, read: () => Promise<Buffer>): Promise<number> {
  const { config, registry } = await loadRegistry(withConfigFile(io.env, configFile));
  const operation = findOperation(registry, servedOperations(config, registry).map((info) => info.name), target);
  const body = await read();
  const answer = await runOperation(registry, operation, body, config);
  if (answer.status < 400) {
    await write(io.stdout, `${answer.json}\n`);
    return EXIT.ok;
  }
  await write(io.stderr, `${answer.json}\n`);
  return answer.status < 500 ? EXIT.refused : EXIT.failed;
}
