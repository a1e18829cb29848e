/**
 * The OpenAPI document → the tools the pages show, grouped as the document's tags are and the tags
 * into the manifests' categories. Everything comes from the document, so a plugin loaded from a
 * folder has its page the moment it is mounted.
 */
import { PLUGIN_CATEGORIES } from '@toolshed/plugin-sdk';
import { fieldNames } from './shared/fields.js';
import type { Io } from './shared/recipes.js';
import { humanize, isRecord, literalsOf, type Json, type Schema } from './shared/schema.js';
import type { SearchEntry } from './shared/search.js';

export interface ToolExample {
  readonly title: string;
  readonly body: Json;
}

/** One operation, as its page shows it. */
export interface Tool {
  readonly group: string;
  readonly name: string;
  /** The tool's name for people: the manifest's `title` (`JWT decoder`), else the group's name. */
  readonly title: string;
  /** The operation's name for people (`Decode`). */
  readonly action: string;
  /** The API path, `/v1/<group>/<operation>`. */
  readonly path: string;
  /** The page, `/tools/<group>/<operation>`. */
  readonly page: string;
  /** The operation's place in the reference at /docs (swagger-ui's deep link). */
  readonly reference: string;
  readonly summary: string;
  readonly description?: string;
  readonly body: Schema;
  readonly response: Schema;
  readonly examples: readonly ToolExample[];
  /**
   * True when the page answers as the person types: the operation calls no upstream (no 502 in
   * its answers), gives the same answer for the same body (`x-deterministic`) or one that changes
   * with the clock alone (`x-reads-clock`), and is not sent to the worker pool at any size
   * (`x-offload` is not `always`). docs/decisions.md ("The tool pages as tools") states the rule.
   */
  readonly live: boolean;
  /** The answer changes with the clock and nothing else (`x-reads-clock`): cron's next runs, a token's status. */
  readonly clock: boolean;
  /** The manifest's main fields (the document's `x-io`): how recipes wire this operation. */
  readonly io?: Io;
  /** What the list page's search ranks (tool-pages/shared/search.ts). */
  readonly search: SearchEntry;
}

export interface ToolGroup {
  readonly name: string;
  readonly title: string;
  readonly summary?: string;
  readonly tools: readonly Tool[];
}

export interface Category {
  readonly name: string;
  readonly groups: readonly ToolGroup[];
}

export interface Catalog {
  readonly groups: readonly ToolGroup[];
  /** The groups under the manifests' categories, in the SDK's order of categories, "Other tools" last. */
  readonly categories: readonly Category[];
  /** Tools by page path. */
  readonly pages: ReadonlyMap<string, Tool>;
  /** Groups the operator switched off (the document's `x-disabled-groups`). */
  readonly disabledGroups: readonly string[];
}

/** The SDK's categories, in the list's order; a category not among them goes after. */
const CATEGORY_ORDER: readonly string[] = PLUGIN_CATEGORIES;
const OTHER = 'Other tools';
/**
 * The categories of the service's own groups, which no manifest describes: recipes (run, identify,
 * saved recipes) is a reserved group, listed under its own heading after the plugins' categories.
 */
const SERVICE_CATEGORIES: Readonly<Record<string, string>> = { recipes: 'Recipes' };

type Document = Record<string, unknown>;
const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const jsonContent = (value: unknown): Record<string, unknown> => record(record(record(value).content)['application/json']);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []);

/** The fixed string values a body may hold (enumerations), nested ones too: `temperature`, `wifi`, `SHA-256`. */
function fixedValues(schema: Schema): string[] {
  const found = new Set<string>();
  const walk = (inner: Schema): void => {
    for (const value of literalsOf(inner) ?? []) if (typeof value === 'string') found.add(value);
    for (const property of Object.values(inner.properties ?? {})) walk(property);
    if (inner.items) walk(inner.items);
    for (const branch of inner.anyOf ?? inner.oneOf ?? []) walk(branch);
  };
  walk(schema);
  return [...found];
}

interface Tag {
  readonly title: string;
  readonly summary?: string;
  readonly category: string;
  readonly keywords: readonly string[];
}

function toolOf(path: string, post: Record<string, unknown>, tag: Tag): Tool | undefined {
  const [, version, group, name, ...rest] = path.split('/');
  if (version !== 'v1' || !group || !name || rest.length > 0) return undefined;
  const request = jsonContent(post.requestBody);
  const body = record(request.schema) as Schema;
  const examples = Object.values(record(request.examples)).flatMap((entry, index) => {
    const example = record(entry);
    return 'value' in example ? [{ title: typeof example.summary === 'string' ? example.summary : `Example ${index + 1}`, body: example.value as Json }] : [];
  });
  const summary = typeof post.summary === 'string' ? post.summary : '';
  const description = typeof post.description === 'string' ? post.description : undefined;
  const action = humanize(name);
  const clock = post['x-reads-clock'] === true;
  const live = !('502' in record(post.responses)) && (post['x-deterministic'] !== false || clock) && post['x-offload'] !== 'always';
  const declared = record(post['x-io']);
  const io = { ...(typeof declared.input === 'string' ? { input: declared.input } : {}), ...(typeof declared.output === 'string' ? { output: declared.output } : {}) };
  const search: SearchEntry = {
    page: `/tools/${group}/${name}`,
    label: `${tag.title}: ${action.toLowerCase()}`,
    summary,
    action: `${name} ${action}`,
    title: `${tag.title} ${group}`,
    keywords: [...tag.keywords, `${group}/${name}`].join(' '),
    fields: [...fieldNames(body), ...fixedValues(body)].join(' '),
    about: [tag.summary, description].filter(Boolean).join(' '),
  };
  return {
    group,
    name,
    title: tag.title,
    action,
    path,
    page: `/tools/${group}/${name}`,
    reference: `/docs#/${encodeURIComponent(group)}/${encodeURIComponent(String(post.operationId ?? ''))}`,
    summary,
    ...(description ? { description } : {}),
    body,
    response: record(jsonContent(record(post.responses)['200']).schema) as Schema,
    examples,
    live,
    clock,
    ...(Object.keys(io).length > 0 ? { io } : {}),
    search,
  };
}

function tagsOf(document: Document): Map<string, Tag> {
  const tags = Array.isArray(document.tags) ? document.tags.map(record) : [];
  return new Map(
    tags.map((tag) => {
      const name = String(tag.name);
      const summary = typeof tag.description === 'string' ? tag.description : undefined;
      return [name, { title: typeof tag['x-title'] === 'string' ? tag['x-title'] : humanize(name), ...(summary ? { summary } : {}), category: typeof tag['x-category'] === 'string' ? tag['x-category'] : (Object.hasOwn(SERVICE_CATEGORIES, name) ? SERVICE_CATEGORIES[name]! : OTHER), keywords: strings(tag['x-keywords']) }];
    }),
  );
}

/** Every operation of `document`, in its tags' order, and the tags in categories. */
export function catalogOf(document: Document): Catalog {
  const tags = tagsOf(document);
  const byGroup = new Map<string, Tool[]>([...tags.keys()].map((name) => [name, []]));
  for (const [path, item] of Object.entries(record(document.paths))) {
    const post = record(record(item).post);
    const group = path.split('/')[2] ?? '';
    const tool = toolOf(path, post, tags.get(group) ?? { title: humanize(group), category: OTHER, keywords: [] });
    if (!tool) continue;
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group)!.push(tool);
  }
  const groups = [...byGroup]
    .filter(([, tools]) => tools.length > 0)
    .map(([name, tools]) => {
      const tag = tags.get(name);
      return { name, title: tools[0]!.title, ...(tag?.summary ? { summary: tag.summary } : {}), tools };
    });
  const categoryOf = (group: ToolGroup): string => tags.get(group.name)?.category ?? OTHER;
  const names = [...new Set(groups.map(categoryOf))];
  const rank = (name: string): number => (name === OTHER ? Infinity : CATEGORY_ORDER.includes(name) ? CATEGORY_ORDER.indexOf(name) : CATEGORY_ORDER.length);
  const categories = names
    .sort((a, b) => rank(a) - rank(b))
    .map((name) => ({ name, groups: groups.filter((group) => categoryOf(group) === name).sort((a, b) => a.title.localeCompare(b.title, 'en')) }));
  return {
    groups,
    categories,
    pages: new Map(groups.flatMap((group) => group.tools.map((tool) => [tool.page, tool] as const))),
    disabledGroups: strings(document['x-disabled-groups']),
  };
}
