/**
 * Regular-expression sources for `pattern` keywords that several plugins share, so that a body
 * schema says in JSON Schema what its handler enforces.
 */

/** Four-digit years 0001–9999 (there is no year 0 in YYYY-MM-DD dates here). */
const YEAR = '(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])';
/** Leap years of 0001–9999: divisible by 4 and not by 100, or by 400. */
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';

/**
 * An existing proleptic Gregorian calendar date `YYYY-MM-DD`, years 0001–9999 (leap years
 * included), without anchors so that it can be part of a longer pattern. No lookaround, so
 * generators that build strings from a pattern can use it.
 */
export const CALENDAR_DATE =
  `(?:${YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))` +
  `|${LEAP_YEAR}-02-29)`;

/** A time of day `HH:MM:SS` (00:00:00–23:59:59, no leap second), optional fraction of 1–9 digits; no anchors. */
export const TIME_OF_DAY = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?';

/** A UTC offset: `Z` or `±HH:MM` up to ±23:59; no anchors. */
export const UTC_OFFSET = '(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
