/**
 * A plugin's manifest as data: everything but its functions (handlers, `warm`, `close`). This is
 * what the main thread holds of a contained plugin, whose module is imported in processes of its
 * own only (kernel/host/manifest-probe.ts): schemas, examples, errors, summaries, `io`,
 * `recognizers` and every other data field, enough for the registry, the OpenAPI document, MCP and
 * the tool pages.
 */
import type { OperationDefinition, Plugin } from '@toolshed/plugin-sdk';

/** One operation's definition without its handler. */
export type OperationData = Omit<OperationDefinition, 'handler'>;

/** A manifest without its functions. A {@link Plugin} is one too (it has more). */
export type ManifestData = Omit<Plugin, 'warm' | 'close' | 'operations'> & { readonly operations: Readonly<Record<string, OperationData>> };

/**
 * `data` dressed as a manifest for the SDK's checks, each handler a stand-in that is never called
 * (the main thread re-checks what a contained plugin's probe process sent, with its own copy of the rules).
 */
export function asCheckable(data: unknown): unknown {
  const operations = (data as { operations?: unknown } | null)?.operations;
  if (typeof operations !== 'object' || operations === null) return data;
  const standIn = (): never => {
    throw new Error('a contained plugin runs in its own workers only');
  };
  const dressed = Object.fromEntries(Object.entries(operations).map(([name, operation]) => [name, typeof operation === 'object' ? { ...operation, handler: standIn } : operation]));
  return { ...(data as object), operations: dressed };
}
