/**
 * Composite operations: operations that belong to no plugin but to a front door, handed to the host
 * by the composition root (service/) and run through the plugins' operations (a recipe runs its
 * steps). The executor lists, finds and runs them like any other, so every door that derives what
 * it serves from `executor.operations()` (the /v1 routes, the OpenAPI document, MCP tools,
 * `toolshed call`) serves them with no code of its own. The kernel names none of them: what they
 * are, which groups they reserve and which configuration section they read all come from outside.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import type { Config } from './config.js';
import { createExecutor, type Executor, type ExecutorOptions, type HostExecutor, type OperationInfo, type RunAnswer, type RunRequest } from './executor.js';
import { parseJsonObject } from './middleware/body.js';
import { nearestPath, notFoundMessages } from './route-hint.js';

/** One composite operation: what every door shows of it, and how it runs. */
export interface CompositeOperation {
  /** As for a plugin's operation; `composite` is set by the host. */
  readonly info: Omit<OperationInfo, 'composite'>;
  /**
   * Runs it on `body` (the parsed JSON value). `operations` runs the plugins' operations only: a
   * composite is never a step of another, so what one request can set off stays bounded by its
   * own body. `request` carries the caller's signal, request id, deadline and `charge`.
   */
  run(body: unknown, request: RunRequest, operations: Executor): Promise<RunAnswer>;
}

/**
 * What the composition root adds to the host besides the plugins. A front door owns configuration
 * sections and groups the way a plugin does, so the kernel's key check and group check know them
 * without knowing what they are.
 */
export interface HostExtensions {
  /** Top-level configuration keys a front door reads (checked by `composites`, not the kernel). */
  readonly sections?: readonly string[];
  /** Groups no plugin may take: a front door serves `/v1/<group>/…`. */
  readonly reservedGroups?: readonly string[];
  /**
   * The composite operations, made once the plugins' operations are known. Throws the kernel's
   * ConfigError naming every problem of its sections: the service then does not start.
   */
  readonly composites?: (operations: Executor, config: Config) => readonly CompositeOperation[];
}

const isBytesBody = (body: unknown): body is { bytes: Buffer } => typeof body === 'object' && body !== null && Buffer.isBuffer((body as { bytes?: unknown }).bytes);

/**
 * `base` with `composites` beside its operations: listed after them, found by name, nearest names
 * and 404 hints over both. A composite's answer is held to the same answer cap as an operation's.
 */
export function withComposites(base: HostExecutor, composites: readonly CompositeOperation[], disabledGroups: readonly string[]): HostExecutor {
  if (composites.length === 0) return base;
  const byName = new Map<string, CompositeOperation & { readonly info: OperationInfo }>();
  for (const composite of composites) {
    const info: OperationInfo = { ...composite.info, composite: true };
    if (base.find(info.name) !== undefined || byName.has(info.name)) throw new Error(`The composite operation ${info.name} is served already`);
    byName.set(info.name, { info, run: composite.run });
  }
  const infos = [...base.operations(), ...[...byName.values()].map((composite) => composite.info)];
  const names = infos.map((info) => `/v1/${info.name}`).sort();
  const notFoundMessage = notFoundMessages(names, disabledGroups);
  return {
    ...base,
    operations: () => infos,
    find: (name) => byName.get(name)?.info ?? base.find(name),
    nearest: (name) => nearestPath(`/v1/${name}`, names)?.slice('/v1/'.length),
    notFoundMessage,
    async run(request) {
      const composite = byName.get(request.operation);
      if (composite === undefined) return base.run(request);
      const body = isBytesBody(request.body) ? parseJsonObject(request.body.bytes) : (request.body ?? {});
      const answer = await composite.run(body, request, base);
      if (answer.bytes > base.maxAnswerBytes) throw new UnprocessableError('output_too_large', `The answer would be ${answer.bytes} bytes; at most ${base.maxAnswerBytes} are sent`);
      return answer;
    },
  };
}

/**
 * The executor of the registry's operations and the extensions' composites. Throws the extensions'
 * ConfigError when their configuration is broken. Opens nothing (the host opens the pool and warms
 * the plugins): `toolshed config check` and `toolshed openapi` use it to see what would be served.
 */
export function composeExecutor(options: ExecutorOptions & { readonly extensions?: HostExtensions }): HostExecutor {
  const base = createExecutor(options);
  const composites = options.extensions?.composites?.(base, options.config) ?? [];
  return withComposites(base, composites, options.registry.disabledGroups);
}
