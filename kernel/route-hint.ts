/**
 * The message of a 404: names the operation path the caller most likely meant (a typo, a missing
 * `/v1`, a trailing slash, capitals) and always points to the list of every operation. Computed
 * only for unknown paths, from a list of paths fixed at start-up.
 */

/** Where every operation is listed. */
export const OPERATION_LIST_PATH = '/v1/openapi.json';

/** Longer paths are not compared: no known path is anywhere near that long. */
const MAX_COMPARED_LENGTH = 120;
/** The most edits a path may be away from an operation's and still be named as its likely meaning. */
const MAX_EDITS = 3;

/** Levenshtein distance, giving up (returning `limit + 1`) once every entry of a row exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/** Lower case, single slashes, no trailing slash, and `/v1` in front when it is missing. */
function normalise(path: string): string {
  let value = path.toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  if (!value.startsWith('/v1/') && value !== '/v1') value = `/v1${value.startsWith('/') ? '' : '/'}${value}`;
  return value;
}

/** The operation path closest to `path`, or undefined when none is close. */
export function nearestPath(path: string, known: readonly string[]): string | undefined {
  if (path.length > MAX_COMPARED_LENGTH) return undefined;
  const wanted = normalise(path);
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate, MAX_EDITS);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  const [, group, operation] = /^\/v1\/([^/]+)(?:\/([^/]+))?/.exec(wanted) ?? [];
  if (group === undefined) return undefined;
  // A known group with an unknown operation: name the group's first operation.
  const inGroup = known.find((candidate) => candidate.startsWith(`/v1/${group}/`));
  if (inGroup !== undefined) return inGroup;
  return shortGroupPath(group, operation, known);
}

/**
 * A group named by the first words of its name (`subnet` for `subnet-calculator`, `qr-code` for
 * `qr-code-generator`): its operation nearest to `operation`, else its first one. Only when one
 * group's name starts with those words, so that `text` names none of several `text-…` groups.
 */
function shortGroupPath(group: string, operation: string | undefined, known: readonly string[]): string | undefined {
  const candidates = known.filter((candidate) => candidate.startsWith(`/v1/${group}-`));
  const groups = new Set(candidates.map((candidate) => candidate.split('/')[2]));
  if (groups.size !== 1) return undefined;
  let best = candidates[0];
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of operation === undefined ? [] : candidates) {
    const distance = editDistance(operation!, candidate.split('/')[3] ?? '', MAX_EDITS);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The group a path names (`/v1/<group>/…`, compared as {@link nearestPath} compares), if any. */
export function groupOf(path: string): string | undefined {
  return path.length > MAX_COMPARED_LENGTH ? undefined : /^\/v1\/([^/]+)/.exec(normalise(path))?.[1];
}

/** What a caller is told about a group that is installed but switched off on this server. */
export function disabledGroupMessage(group: string): string {
  return `The group ${group} exists but is switched off on this server. This server's operations are listed at ${OPERATION_LIST_PATH}.`;
}

/**
 * Builds the 404 message for any path, given the operation paths served and the groups found but
 * switched off (a path into one of those says so, rather than looking like a typo).
 */
export function notFoundMessages(operationPaths: readonly string[], disabledGroups: readonly string[] = []): (path: string) => string {
  const known = [...operationPaths].sort();
  const disabled = new Set(disabledGroups);
  return (path) => {
    const group = groupOf(path);
    if (group !== undefined && disabled.has(group)) return disabledGroupMessage(group);
    const nearest = nearestPath(path, known);
    const hint = nearest === undefined ? '.' : `; did you mean POST ${nearest}?`;
    return `There is no operation at this path${hint} Every operation is listed at ${OPERATION_LIST_PATH}.`;
  };
}
