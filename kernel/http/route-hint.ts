/**
 * The message of a 404 under the API: names the operation path the caller most likely meant (a
 * typo, a missing `/v1`, a trailing slash, capitals) — the host's nearest operation name, said as a
 * path — and always points to the list of every operation. Computed only for unknown paths.
 */
import { groupOfName, MAX_COMPARED_LENGTH, nearestOperation } from '../host/index.js';

/** Where every operation is listed. */
export const OPERATION_LIST_PATH = '/v1/openapi.json';

/** The operation name a path may mean: without its `/v1` (present or not). */
function nameOf(path: string): string {
  return path.replace(/^\/*v1(?=\/|$)/i, '');
}

/** The operation path closest to `path`, or undefined when none is close; `known` are operation names, sorted. */
export function nearestPath(path: string, known: readonly string[]): string | undefined {
  if (path.length > MAX_COMPARED_LENGTH) return undefined;
  const name = nearestOperation(nameOf(path), known);
  return name === undefined ? undefined : `/v1/${name}`;
}

/** The group a path names (`/v1/<group>/…`, compared as {@link nearestPath} compares), if any. */
export function groupOf(path: string): string | undefined {
  return groupOfName(nameOf(path));
}

/** What a caller is told about a group that is installed but switched off on this server. */
export function disabledGroupMessage(group: string): string {
  return `The group ${group} exists but is switched off on this server. This server's operations are listed at ${OPERATION_LIST_PATH}.`;
}

/**
 * Builds the 404 message for any path, given the operation names served and the groups found but
 * switched off (a path into one of those says so, rather than looking like a typo).
 */
export function notFoundMessages(operationNames: readonly string[], disabledGroups: readonly string[] = []): (path: string) => string {
  const known = [...operationNames].sort();
  const disabled = new Set(disabledGroups);
  return (path) => {
    const group = groupOf(path);
    if (group !== undefined && disabled.has(group)) return disabledGroupMessage(group);
    const nearest = nearestPath(path, known);
    const hint = nearest === undefined ? '.' : `; did you mean POST ${nearest}?`;
    return `There is no operation at this path${hint} Every operation is listed at ${OPERATION_LIST_PATH}.`;
  };
}
