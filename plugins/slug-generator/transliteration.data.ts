/**
 * Replacements handed to `@sindresorhus/slugify` as `customReplacements` when `german` is false: the
 * umlauts lose their dots instead of gaining an "e". (German mode needs no table of its own: the
 * library's `de` locale already writes ä→ae, Ä→Ae, ö→oe, ü→ue, ß→ss, ẞ→Ss.) ß and ẞ stay "ss"/"Ss"
 * in both modes, because a sharp s has no accent to drop.
 */
export const umlautsWithoutE: ReadonlyArray<[string, string]> = [
  ['ä', 'a'],
  ['Ä', 'A'],
  ['ö', 'o'],
  ['Ö', 'O'],
  ['ü', 'u'],
  ['Ü', 'U'],
];
