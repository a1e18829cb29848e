/**
 * URL slugs with `@sindresorhus/slugify`, cut to a maximum length at a word boundary.
 *
 * The library is linear but slow on hostile text: each separator or replacement it writes costs
 * regular-expression matches of several hundred nanoseconds, so 10 MB of `a's ` takes 5–9 seconds
 * and 1 MB of `&` (each becomes " and ") up to 2.5 s on a busy machine. The text is therefore
 * capped at {@link MAX_TEXT_LENGTH}, 100 times the longest slug `maxLength` allows, where the
 * worst case stays around a quarter of a second.
 */
import slugify from '@sindresorhus/slugify';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { umlautsWithoutE } from './transliteration.data.js';

/** The word separators a slug may use. */
export type SlugSeparator = '-' | '_' | '.';

/** Longest text slugified, in UTF-16 code units (a character outside the BMP counts twice). */
export const MAX_TEXT_LENGTH = 100_000;

/** The options of one slug, as the request carries them. */
export interface SlugOptions {
  readonly separator: SlugSeparator;
  readonly lowercase: boolean;
  /** ä→ae, ö→oe, ü→ue, ß→ss; otherwise umlauts lose their dots (ä→a). */
  readonly german: boolean;
  /** 0 for no limit. */
  readonly maxLength: number;
}

/**
 * Shortens `slug` to at most `limit` characters by cutting at the last separator that keeps it
 * within the limit; a first word longer than the limit is cut hard. A slug holds only ASCII
 * letters, digits and single separators, so characters and code units are the same here.
 */
export function cutSlug(slug: string, limit: number, separator: SlugSeparator): string {
  if (slug.length <= limit) return slug;
  // The separator at index `limit` (if any) is the one right after the last word that fits.
  const boundary = slug.lastIndexOf(separator, limit);
  return boundary > 0 ? slug.slice(0, boundary) : slug.slice(0, limit);
}

/**
 * The slug of `text`: transliterated to ASCII, camel case left alone, everything that is not a
 * letter or digit turned into single separators, trimmed, then cut to `maxLength`. Text with
 * nothing sluggable gives `""`. Throws 422 `text_too_long` above {@link MAX_TEXT_LENGTH}.
 */
export function makeSlug(text: string, options: SlugOptions): string {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new UnprocessableError('text_too_long', `The text is longer than ${MAX_TEXT_LENGTH} characters`);
  }
  const slug = slugify(text, {
    separator: options.separator,
    lowercase: options.lowercase,
    decamelize: false,
    ...(options.german ? { locale: 'de' } : { customReplacements: umlautsWithoutE }),
  });
  return options.maxLength === 0 ? slug : cutSlug(slug, options.maxLength, options.separator);
}
