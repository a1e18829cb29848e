/**
 * `node --import <this module, built>`: the process appends the URL of every module it resolves to
 * the file $MODULE_LOG names, so a test can say what a command loads (a count of modules, not a time).
 */
import { register } from 'node:module';

register(new URL('./module-log-hooks.js', import.meta.url));
