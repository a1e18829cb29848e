/**
 * A character diff that cannot fit its work budget, refused before any token is made. align()
 * learns that the edit distance is past the budget only after making every token and key: for two
 * different 5 MB lines that is about 240 MB of arrays and a second of CPU, for a refusal. The
 * counts of each key on both sides give a floor for that distance in two passes over the texts and
 * two fixed tables: a key found c₁ times on one side and c₂ on the other needs |c₁ − c₂| edits
 * whatever the alignment. Counted on exactly the keys align() would compare (its common ends cut
 * off, keys on one side only set aside when it would), so the refusal comes where align()'s
 * would, and nowhere else.
 */
import { MAX_FILTERED_KEYS, type WorkBudget } from './align.js';
import { foldCase, isSpaceUnit, type CompareOptions } from './tokens.js';

/** Texts (both, in UTF-16 code units) from which a character diff counts its floor first. */
export const CHAR_FLOOR_FROM_UNITS = 65_536;

/** Code points and lone surrogates: every token `chars` makes is one of these numbers. */
const TOKEN_IDS = 0x110000;
/**
 * Key numbers past the tokens', for a folded form of more than one code point (U+0130 İ lowercases
 * to i and a combining dot; no other character's lowercase is longer than itself today).
 */
const LONG_FORMS = 64;
const KEY_IDS = TOKEN_IDS + LONG_FORMS;

/** Thrown when more long folded forms turn up than there are numbers for: the floor then gives way to align() itself. */
class OutOfKeys extends Error {}

/** The token (a code point, or a lone surrogate) that starts at `index`. */
function tokenAt(text: string, index: number): number {
  const unit = text.charCodeAt(index);
  if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return (unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
  }
  return unit;
}

/** The token that ends just before `end`. */
function tokenBefore(text: string, end: number): number {
  const unit = text.charCodeAt(end - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && end >= 2) {
    const previous = text.charCodeAt(end - 2);
    if (previous >= 0xd800 && previous <= 0xdbff) return (previous - 0xd800) * 0x400 + (unit - 0xdc00) + 0x10000;
  }
  return unit;
}

const unitsOf = (token: number): number => (token > 0xffff ? 2 : 1);

/**
 * Key numbers: the token itself, or under ignoreCase its folded form's code point (the lowercase,
 * σ for ς, as foldCase writes it), a number past the tokens' for a longer form; and which were seen.
 */
class Keys {
  private readonly longForms = new Map<string, number>();
  /** Under ignoreCase, each token's key plus one (0: not folded yet). */
  private readonly byToken: Int32Array | undefined;
  private readonly marked = new Uint8Array(KEY_IDS);
  /** Every key counted, once each: the only ones the floor adds up. */
  readonly seen: number[] = [];

  constructor(private readonly options: CompareOptions) {
    this.byToken = options.ignoreCase ? new Int32Array(TOKEN_IDS) : undefined;
  }

  /** The key of `token`, or -1 when it is whitespace that is not compared. */
  of(token: number): number {
    if (this.options.ignoreWhitespace && token <= 0xffff && isSpaceUnit(token)) return -1;
    if (this.byToken === undefined) return token;
    const known = this.byToken[token]!;
    if (known > 0) return known - 1;
    const key = this.fold(token);
    this.byToken[token] = key + 1;
    return key;
  }

  /** Notes that `key` was counted. */
  see(key: number): void {
    if (this.marked[key] === 1) return;
    this.marked[key] = 1;
    this.seen.push(key);
  }

  private fold(token: number): number {
    const form = foldCase(String.fromCodePoint(token));
    const first = form.codePointAt(0)!;
    if (form.length === (first > 0xffff ? 2 : 1)) return first;
    let key = this.longForms.get(form);
    if (key === undefined) {
      if (this.longForms.size === LONG_FORMS) throw new OutOfKeys();
      key = TOKEN_IDS + this.longForms.size;
      this.longForms.set(form, key);
    }
    return key;
  }
}

/** How often each key occurs in `text`, and how many keys it has. */
function countKeys(text: string, keys: Keys): { counts: Int32Array; total: number } {
  const counts = new Int32Array(KEY_IDS);
  let total = 0;
  for (let index = 0; index < text.length; ) {
    const token = tokenAt(text, index);
    index += unitsOf(token);
    const key = keys.of(token);
    if (key === -1) continue;
    if (counts[key]!++ === 0) keys.see(key);
    total++;
  }
  return { counts, total };
}

/**
 * Throws align()'s own refusal (422 `diff_too_complex`) when the characters of `left` and `right`
 * cannot be aligned within `budget`; returns when they may be, without spending any of it.
 */
export function refuseHopelessCharDiff(left: string, right: string, options: CompareOptions, budget: WorkBudget): void {
  try {
    refuseBelowFloor(left, right, options, budget);
  } catch (error) {
    if (!(error instanceof OutOfKeys)) throw error;
  }
}

/** A text's compared keys, walked from one end: whitespace that is not compared is passed over. */
class KeyCursor {
  private at: number;

  constructor(
    private readonly text: string,
    private readonly keys: Keys,
    private readonly fromEnd: boolean,
  ) {
    this.at = fromEnd ? text.length : 0;
  }

  /** The next key from this end, or -1 when none is left. */
  peek(): number {
    for (;;) {
      const token = this.token();
      if (token === -1) return -1;
      const key = this.keys.of(token);
      if (key !== -1) return key;
      this.pass(token);
    }
  }

  /** Steps past the key {@link peek} gave. */
  take(): void {
    this.pass(this.token());
  }

  private token(): number {
    if (this.fromEnd) return this.at > 0 ? tokenBefore(this.text, this.at) : -1;
    return this.at < this.text.length ? tokenAt(this.text, this.at) : -1;
  }

  private pass(token: number): void {
    this.at += this.fromEnd ? -unitsOf(token) : unitsOf(token);
  }
}

/** Cuts off up to `most` keys both texts have in common at one end, each from both counts, as align() does; how many it cut. */
function cutCommonEnd(left: KeyCursor, right: KeyCursor, counts: readonly [Int32Array, Int32Array], most: number): number {
  let cut = 0;
  while (cut < most) {
    const key = left.peek();
    if (key === -1 || key !== right.peek()) break;
    counts[0][key]!--;
    counts[1][key]!--;
    left.take();
    right.take();
    cut++;
  }
  return cut;
}

function refuseBelowFloor(left: string, right: string, options: CompareOptions, budget: WorkBudget): void {
  const keys = new Keys(options);
  const l = countKeys(left, keys);
  const r = countKeys(right, keys);
  const counts = [l.counts, r.counts] as const;
  // align()'s common ends, over keys: its prefix first, then a suffix that does not overlap it.
  const prefix = cutCommonEnd(new KeyCursor(left, keys, false), new KeyCursor(right, keys, false), counts, Number.POSITIVE_INFINITY);
  const suffix = cutCommonEnd(new KeyCursor(left, keys, true), new KeyCursor(right, keys, true), counts, Math.min(l.total, r.total) - prefix);
  const middleLeft = l.total - prefix - suffix;
  const middleRight = r.total - prefix - suffix;
  // Nothing to align on one side: align() runs no diff.
  if (middleLeft === 0 || middleRight === 0) return;
  const filter = middleLeft + middleRight <= MAX_FILTERED_KEYS;
  let floor = 0;
  let size = filter ? 0 : middleLeft + middleRight;
  for (const key of keys.seen) {
    const [a, b] = [l.counts[key]!, r.counts[key]!];
    if (!filter) floor += Math.abs(a - b);
    else if (a > 0 && b > 0) {
      floor += Math.abs(a - b);
      size += a + b;
    }
  }
  // No key on both sides: align() sets every key aside and runs no diff.
  if (size === 0) return;
  budget.refuseUnreachable(size, floor);
}
