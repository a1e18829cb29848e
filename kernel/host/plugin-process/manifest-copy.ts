/**
 * A manifest as data, made in the probe process that imported the plugin (child-entry.ts): what
 * survives node:v8's serializer, the structured clone, to reach the service.
 */

/**
 * `value` with every function left out, at any depth, so that it survives a structured clone:
 * plain objects and arrays are copied, anything else is kept as it is (a RegExp pattern clones).
 * Runs in the process that imported the plugin. An object shared by two fields (one schema used by
 * two operations) is copied twice; a cycle is cut where it closes.
 */
export function withoutFunctions(value: unknown, ancestors = new Set<object>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  ancestors.add(value);
  const copy = Array.isArray(value)
    ? value.map((item: unknown) => (typeof item === 'function' ? undefined : withoutFunctions(item, ancestors)))
    : Object.fromEntries(Object.entries(value).filter(([, item]) => typeof item !== 'function').map(([key, item]) => [key, withoutFunctions(item, ancestors)]));
  ancestors.delete(value);
  return copy;
}

