/**
 * The OpenAPI document → the tools the pages show, grouped as the document's tags are. Everything
 * comes from the document, so a plugin loaded from a folder has its page the moment it is mounted.
 */
import { fieldNames } from './shared/fields.js';
import { isRecord, type Json, type Schema } from './shared/schema.js';

export interface ToolExample {
  readonly title: string;
  readonly body: Json;
}

/** One operation, as its page shows it. */
export interface Tool {
  readonly group: string;
  readonly name: string;
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
  /** What the list page's search matches: names, summaries and every field name, lower case. */
  readonly searchText: string;
}

export interface ToolGroup {
  readonly name: string;
  readonly summary?: string;
  readonly tools: readonly Tool[];
}

export interface Catalog {
  readonly groups: readonly ToolGroup[];
  /** Tools by page path. */
  readonly pages: ReadonlyMap<string, Tool>;
}

type Document = Record<string, unknown>;
const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const jsonContent = (value: unknown): Record<string, unknown> => record(record(record(value).content)['application/json']);

function toolOf(path: string, post: Record<string, unknown>, groupSummary: string | undefined): Tool | undefined {
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
  const searchText = [group, name, summary, groupSummary ?? '', ...fieldNames(body)].join(' ').toLowerCase();
  return {
    group,
    name,
    path,
    page: `/tools/${group}/${name}`,
    reference: `/docs#/${encodeURIComponent(group)}/${encodeURIComponent(String(post.operationId ?? ''))}`,
    summary,
    ...(description ? { description } : {}),
    body,
    response: record(jsonContent(record(post.responses)['200']).schema) as Schema,
    examples,
    searchText,
  };
}

/** Every operation of `document`, in its tags' order. */
export function catalogOf(document: Document): Catalog {
  const tags = Array.isArray(document.tags) ? document.tags.map(record) : [];
  const summaries = new Map(tags.map((tag) => [String(tag.name), typeof tag.description === 'string' ? tag.description : undefined]));
  const byGroup = new Map<string, Tool[]>([...summaries.keys()].map((name) => [name, []]));
  for (const [path, item] of Object.entries(record(document.paths))) {
    const post = record(record(item).post);
    const group = path.split('/')[2] ?? '';
    const tool = toolOf(path, post, summaries.get(group));
    if (!tool) continue;
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group)!.push(tool);
  }
  const groups = [...byGroup].filter(([, tools]) => tools.length > 0).map(([name, tools]) => ({ name, ...(summaries.get(name) ? { summary: summaries.get(name)! } : {}), tools }));
  return { groups, pages: new Map(groups.flatMap((group) => group.tools.map((tool) => [tool.page, tool] as const))) };
}
