/** Random operations on a list of strings: pick, shuffle, teams. */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { sample, shuffled } from './uniform.js';

/**
 * Largest response, in characters of item text plus 3 per item (quotes and comma). The lists come
 * from a request of up to 10 MB; the cap keeps the work and the answer of a "small tool" small.
 */
export const MAX_OUTPUT_CHARS = 1_000_000;

/** Throws `output_too_large` when `items` would make a response above {@link MAX_OUTPUT_CHARS}. */
function checkOutputSize(items: readonly string[]): void {
  let size = 0;
  for (const item of items) {
    size += item.length + 3;
    if (size > MAX_OUTPUT_CHARS) {
      throw new UnprocessableError(
        'output_too_large',
        `The response would exceed ${MAX_OUTPUT_CHARS} characters; send fewer or shorter items`,
      );
    }
  }
}

/**
 * `count` items drawn without replacement: distinct positions of `items`, so a name listed twice
 * can be drawn twice, like two slips in a hat.
 *
 * @throws UnprocessableError `not_enough_items` or `output_too_large`.
 */
export function pickItems(items: readonly string[], count: number): string[] {
  if (count > items.length) {
    throw new UnprocessableError('not_enough_items', `Cannot draw ${count} items from a list of ${items.length}`);
  }
  const picked = sample(items, count);
  checkOutputSize(picked);
  return picked;
}

/**
 * `items` in uniformly random order.
 *
 * @throws UnprocessableError `output_too_large`.
 */
export function shuffleItems(items: readonly string[]): string[] {
  checkOutputSize(items);
  return shuffled(items);
}

/**
 * `items` shuffled and dealt round-robin into `teams` teams, so sizes differ by at most one (the
 * first teams get the extra members); with fewer items than teams the last teams are empty.
 *
 * @throws UnprocessableError `output_too_large`.
 */
export function makeTeams(items: readonly string[], teams: number): string[][] {
  checkOutputSize(items);
  const result: string[][] = Array.from({ length: teams }, () => []);
  shuffled(items).forEach((item, index) => result[index % teams].push(item));
  return result;
}
