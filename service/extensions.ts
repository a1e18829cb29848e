/**
 * What the front doors add to the host wherever it is opened (the HTTP service, `toolshed call`,
 * MCP over stdio, `config check`, `toolshed openapi`): recipes and identify as composite operations
 * (kernel/host/composite.ts) under the reserved group `recipes`, saved recipes read from the `recipes:`
 * section. Its own module, so a command that opens a host loads no HTTP front door.
 */
import type { HostExtensions } from '../kernel/host/index.js';
import { recipeOperations, RECIPES_GROUP, RECIPES_SECTION } from '../recipes/index.js';

export const extensions: HostExtensions = { sections: [RECIPES_SECTION], reservedGroups: [RECIPES_GROUP], composites: recipeOperations };
