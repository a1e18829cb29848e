/**
 * `node --import <this module, built>`: the process appends the URL of every module it resolves to
 * the file $MODULE_LOG names, so a test can say what a command loads (a count of modules, not a time).
 */
import * as nodeModule from 'node:module';
import { logResolved } from './module-log-hooks.js';

/** Node 22.15 and later run hooks on the loading thread (registerHooks; register() is deprecated on 26). */
type RegisterHooks = (hooks: { resolve: (specifier: string, context: object, next: (specifier: string, context: object) => { url: string }) => { url: string } }) => void;
const { registerHooks } = nodeModule as { registerHooks?: RegisterHooks };

if (registerHooks !== undefined) {
  registerHooks({
    resolve: (specifier, context, next) => {
      const resolved = next(specifier, context);
      logResolved(resolved.url);
      return resolved;
    },
  });
} else {
  // Node 20: the hooks run on a loader thread of their own (module-log-hooks.ts).
  nodeModule.register(new URL('./module-log-hooks.js', import.meta.url));
}
