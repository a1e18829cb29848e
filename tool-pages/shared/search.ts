/**
 * The list page's search: the tools ranked by how well a query's words match them. Each word is
 * looked for in the operation's own name first ("decode" picks Decode), then the tool's title, its
 * group and the manifest's keywords (the synonyms: epoch, cidr, hsl), then the summary, and last
 * the rest (field names, fixed values, descriptions). A word found in what is the operation's own
 * (its summary, fields and values) also breaks ties between the operations of one group. A tool is listed only when every word is
 * found somewhere; the best score comes first, ties in the list's order. Pure, so it is tested in
 * Node (test/tool-pages-search.test.ts); the browser script ranks with it as the person types.
 */

/** One operation as the search sees it; the server writes these into the list page. */
export interface SearchEntry {
  readonly page: string;
  /** "Base64 encoder: decode", as the results list shows it. */
  readonly label: string;
  readonly summary: string;
  /** The operation's name and its name in words: `decode Decode`. */
  readonly action: string;
  /** The tool's title and group: `Base64 encoder base64`. */
  readonly title: string;
  /** The manifest's keywords, and the operation's path (`base64/decode`). */
  readonly keywords: string;
  /** The body's field names and fixed values (`uppercase`, `upper`, `sha256`). */
  readonly fields: string;
  /** The group's summary and the operation's description: found there, a word counts least. */
  readonly about: string;
}

/** Words that say nothing about which tool: "json to yaml", "a hash of a file". */
const STOP_WORDS = new Set(['a', 'an', 'and', 'as', 'by', 'for', 'from', 'how', 'i', 'in', 'into', 'is', 'it', 'me', 'my', 'of', 'on', 'or', 'the', 'this', 'to', 'with']);

/** How much a word found in each part counts: the operation's name most. */
const WEIGHTS = { action: 6, title: 5, keywords: 4, summary: 2, fields: 1, about: 1 } as const;
type Part = keyof typeof WEIGHTS;
const PARTS = Object.keys(WEIGHTS) as Part[];

/** A word without its usual English ending, so "counter", "counts" and "count" meet, and "encoder" and "encode". */
export function stem(word: string): string {
  let stemmed = word;
  if (stemmed.length > 3 && stemmed.endsWith('s') && !stemmed.endsWith('ss')) stemmed = stemmed.slice(0, -1);
  for (const ending of ['ing', 'er', 'ed', 'e']) {
    if (stemmed.length - ending.length >= 3 && stemmed.endsWith(ending)) return stemmed.slice(0, -ending.length);
  }
  return stemmed;
}

/** Lower-case words of a text, camelCase split and accents dropped: `timeZone` → time zone. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words of a query that pick a tool: stop words left out, unless nothing else is left. */
export function queryWords(query: string): string[] {
  const words = wordsOf(query);
  const kept = words.filter((word) => !STOP_WORDS.has(word));
  return kept.length > 0 ? kept : words;
}

interface Prepared {
  readonly entry: SearchEntry;
  readonly parts: Record<Part, { readonly words: readonly string[]; readonly stems: ReadonlySet<string>; readonly text: string }>;
}

function prepare(entry: SearchEntry): Prepared {
  const parts = {} as Prepared['parts'];
  for (const part of PARTS) {
    const words = wordsOf(entry[part]);
    parts[part] = { words, stems: new Set(words.map(stem)), text: ` ${words.join(' ')} ` };
  }
  return { entry, parts };
}

/**
 * 3 for the word itself (or its stem), 2 for the start of a word, 1 for inside one (3 letters or
 * more) or for a word of 4 letters or more that starts the query's ("upper" in "uppercase"); 0 when absent.
 */
function level(word: string, part: Prepared['parts'][Part]): number {
  if (part.words.includes(word) || part.stems.has(stem(word))) return 3;
  if (part.text.includes(` ${word}`)) return 2;
  if (word.length >= 3 && part.text.includes(word)) return 1;
  return part.words.some((found) => found.length >= 4 && word.startsWith(found)) ? 1 : 0;
}

/** The score of `entry` for `words`; 0 when a word is found nowhere. */
function scoreOf(prepared: Prepared, words: readonly string[]): number {
  let total = 0;
  for (const word of words) {
    const best = Math.max(...PARTS.map((part) => WEIGHTS[part] * level(word, prepared.parts[part])));
    if (best === 0) return 0;
    // Found also in what is this operation's own (not its group's): it breaks a tie between a group's operations.
    total += best + (level(word, prepared.parts.summary) > 0 ? 1 : 0) + (level(word, prepared.parts.fields) > 0 ? 0.5 : 0);
  }
  // The query as written, in the title, the keywords or the name: "compound interest", "unix timestamp".
  const phrase = ` ${words.join(' ')} `;
  if (words.length > 1 && (['action', 'title', 'keywords'] as const).some((part) => prepared.parts[part].text.includes(phrase))) total += 6;
  return total;
}

/** A ranker over `entries`, prepared once: each query gives the matching entries, best first. */
export function searcher(entries: readonly SearchEntry[]): (query: string) => SearchEntry[] {
  const prepared = entries.map(prepare);
  return (query) => {
    const words = queryWords(query);
    if (words.length === 0) return [];
    return prepared
      .map((item, index) => ({ item, index, score: scoreOf(item, words) }))
      .filter((found) => found.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map((found) => found.item.entry);
  };
}
