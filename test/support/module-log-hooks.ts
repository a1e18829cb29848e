/** The resolve hook module-log.ts registers on Node 20, where it runs on the loader's thread and so writes to the file itself. */
import { appendFileSync } from 'node:fs';
import type { ResolveHook } from 'node:module';

/** Appends `url` to the file $MODULE_LOG names. */
export function logResolved(url: string): void {
  if (process.env.MODULE_LOG !== undefined) appendFileSync(process.env.MODULE_LOG, `${url}\n`);
}

export const resolve: ResolveHook = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  logResolved(resolved.url);
  return resolved;
};
