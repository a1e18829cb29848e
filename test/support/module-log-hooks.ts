/** The resolve hook module-log.ts registers: it runs on the loader's thread, so it writes to the file itself. */
import { appendFileSync } from 'node:fs';
import type { ResolveHook } from 'node:module';

export const resolve: ResolveHook = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  if (process.env.MODULE_LOG !== undefined) appendFileSync(process.env.MODULE_LOG, `${resolved.url}\n`);
  return resolved;
};
