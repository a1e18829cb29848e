/** Operations by name, as every door and a composite's check look them up: one table, one nearest-name search. */
import type { OperationCatalog, OperationInfo } from './executor-types.js';
import { nearestOperation } from './operation-names.js';

/** A catalog of `infos`, their sorted names for the nearest-name search computed once. */
export function catalogOf(infos: readonly OperationInfo[]): OperationCatalog {
  const byName = new Map(infos.map((info) => [info.name, info]));
  const names = infos.map((info) => info.name).sort();
  return { operations: () => infos, find: (name) => byName.get(name), nearest: (name) => nearestOperation(name, names) };
}
