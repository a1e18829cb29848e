/**
 * What the pages carry for recipes, made from the catalog on the server: each tool page's choice of
 * next steps ("send this answer to…"), the list page's map for identify's links, and the recipe
 * page's list of operations. All derived from the document's `x-io`, so a plugin that declares its
 * main fields joins without a line here.
 */
import type { Catalog, Tool } from './catalog.js';
import { fits, type Io, type LinkTarget } from './shared/recipes.js';
import type { Json, Schema } from './shared/schema.js';
import type { SearchEntry } from './shared/search.js';

/** The page where recipes are built and run: the recipes/run operation's own page. */
export const RECIPE_PAGE = '/tools/recipes/run';

/** An operation as a recipe step is chosen and shown: `base64/decode`, "Base64: decode". */
export interface StepChoice {
  readonly name: string;
  readonly label: string;
}

export interface RecipeOperation extends StepChoice {
  readonly summary: string;
  readonly io?: Io;
  /** The body's top-level fields, required ones first: what the step's body may set. */
  readonly fields: readonly string[];
  /** The body schema, which the step's form is made from (as on the tool's page). */
  readonly body: Schema;
  /** The first example's body, its main input left out (the previous answer fills it). */
  readonly example?: Record<string, Json>;
  readonly response: Schema;
  /** What the step search ranks, as the list page's search does. */
  readonly search: SearchEntry;
}

/** What the recipe page's script gets. */
export interface RecipePageData {
  readonly operations: readonly RecipeOperation[];
}

const tools = (catalog: Catalog): Tool[] => catalog.groups.flatMap((group) => group.tools);
const nameOf = (tool: Tool): string => `${tool.group}/${tool.name}`;
const labelOf = (tool: Tool): string => `${tool.title}: ${tool.action.toLowerCase()}`;

/** The operations whose main input can take `tool`'s main output, by title: what its answer may be sent to. */
export function nextSteps(tool: Tool, catalog: Catalog): StepChoice[] {
  return tools(catalog)
    .filter((next) => fits(tool.response, tool.io?.output, next.body, next.io?.input))
    .map((next) => ({ name: nameOf(next), label: labelOf(next) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

/** Every operation a recipe step may run (one with a main input or output: a composite has neither), for the recipe page. */
export function recipePageData(catalog: Catalog): RecipePageData {
  const operations = tools(catalog)
    .filter((tool) => tool.io !== undefined)
    .map((tool): RecipeOperation => {
      const properties = Object.keys(tool.body.properties ?? {});
      const required = new Set(tool.body.required ?? []);
      const fields = [...properties.filter((name) => required.has(name)), ...properties.filter((name) => !required.has(name))];
      const first = tool.examples[0]?.body;
      const example = first !== null && typeof first === 'object' && !Array.isArray(first) ? { ...first } : undefined;
      if (example && tool.io?.input !== undefined) delete example[tool.io.input];
      return {
        name: nameOf(tool),
        label: labelOf(tool),
        summary: tool.summary,
        ...(tool.io ? { io: tool.io } : {}),
        fields,
        body: tool.body,
        ...(example && Object.keys(example).length > 0 ? { example } : {}),
        response: tool.response,
        search: tool.search,
      };
    })
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  return { operations };
}

/** For identify's links on the list page: each operation's page and main input field. */
export function linkTargets(catalog: Catalog): Record<string, LinkTarget> {
  return Object.fromEntries(tools(catalog).map((tool) => [nameOf(tool), { page: tool.page, ...(tool.io?.input ? { input: tool.io.input } : {}) }]));
}
