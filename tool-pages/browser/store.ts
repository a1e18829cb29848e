/**
 * What the pages keep, all in this browser only: the last input of each tool, favourite tools and
 * recently used ones (localStorage), and the filled form in the address's fragment (`#input=…`),
 * which the browser never sends to the server, so input never reaches a log.
 */
import type { Json } from '../shared/schema.js';

/** A tool as the list of favourites and recent tools names it. */
export interface KeptTool {
  readonly page: string;
  readonly title: string;
}

const PREFIX = 'toolshed.';
/** Inputs larger than this are not kept (a dropped image): localStorage holds a few megabytes in all. */
const MAX_KEPT_INPUT = 20_000;
const MAX_RECENT = 8;

function read<T>(key: string, fallback: T): T {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback; // Storage switched off, or a value another version wrote.
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or switched off: nothing is kept, the page works on.
  }
}

const isKept = (value: unknown): value is KeptTool => typeof value === 'object' && value !== null && typeof (value as KeptTool).page === 'string' && typeof (value as KeptTool).title === 'string';
const keptList = (key: string): KeptTool[] => {
  const value = read<unknown>(key, []);
  return Array.isArray(value) ? value.filter(isKept) : [];
};

function remove(key: string): void {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // Storage switched off: nothing was kept.
  }
}

export const lastInput = (page: string): Json | undefined => read<Json | undefined>(`input:${page}`, undefined);
export const forgetInput = (page: string): void => remove(`input:${page}`);

/** Forgets everything these pages keep in this browser: inputs, favourites, recent tools. */
export function forgetAll(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // Storage switched off: nothing was kept.
  }
}
export function keepInput(page: string, body: Json): void {
  const text = JSON.stringify(body);
  if (text.length <= MAX_KEPT_INPUT) write(`input:${page}`, body);
}

export const favourites = (): KeptTool[] => keptList('favourites');
export const isFavourite = (page: string): boolean => favourites().some((tool) => tool.page === page);
export function setFavourite(tool: KeptTool, on: boolean): void {
  write('favourites', [...favourites().filter((entry) => entry.page !== tool.page), ...(on ? [tool] : [])]);
}

export const recentTools = (): KeptTool[] => keptList('recent');
export function noteRecent(tool: KeptTool): void {
  write('recent', [tool, ...recentTools().filter((entry) => entry.page !== tool.page)].slice(0, MAX_RECENT));
}

/** The form's input carried by the address (`#input=<JSON, percent-encoded>`), if any. */
export function inputFromAddress(): Json | undefined {
  const match = /^#input=(.*)$/.exec(location.hash);
  if (!match) return undefined;
  try {
    return JSON.parse(decodeURIComponent(match[1]!)) as Json;
  } catch {
    return undefined;
  }
}

/** The page's address carrying `body` (files left out: they do not fit an address). */
export function addressWith(body: Json): string {
  return `${location.origin}${location.pathname}#input=${encodeURIComponent(JSON.stringify(body))}`;
}

/** Puts `body` into the address bar without a new history entry. */
export function showInAddress(body: Json): void {
  history.replaceState(null, '', addressWith(body));
}

/**
 * A run the visitor asked for on another page of this tab ("Send this answer to…", an identify
 * link): the recipe page runs the recipe at once only when it finds the same fragment here. A
 * link from anywhere else cannot put it in this tab's sessionStorage, so it opens filled, not run.
 */
const ARMED = `${PREFIX}run`;
export function armRun(fragment: string): void {
  try {
    sessionStorage.setItem(ARMED, fragment);
  } catch {
    // Storage switched off: the recipe page then waits for Run.
  }
}
/** The fragment armed in this tab, if any, forgotten as it is read. */
export function takeArmedRun(): string | undefined {
  try {
    const armed = sessionStorage.getItem(ARMED);
    sessionStorage.removeItem(ARMED);
    return armed ?? undefined;
  } catch {
    return undefined;
  }
}
