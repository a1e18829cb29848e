/**
 * Intl.Segmenter over a window at a time. On Node 20, each step of a segment iterator costs time
 * proportional to the whole string it segments (100,000 characters: 11 s for graphemes), so a
 * long text is fed in windows. A boundary is kept only when it lies `margin` characters before
 * the window's end, where what follows the window can no longer move it; the next window starts
 * at the last kept boundary.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** Most Intl.Segmenter steps one request may take: about a second on a busy machine. */
export const MAX_SEGMENTER_STEPS = 500_000;

/** Counts Intl.Segmenter steps against a limit; past it the text is 422 text_too_complex. */
export class SegmentBudget {
  private used = 0;

  constructor(private readonly limit: number = MAX_SEGMENTER_STEPS) {}

  /** Takes `steps` more steps; throws text_too_complex past the limit. */
  spend(steps: number): void {
    this.used += steps;
    if (this.used > this.limit) {
      throw new UnprocessableError(
        'text_too_complex',
        'The text has too many segments that need full Unicode segmentation (long runs of scripts without spaces, or unusual character sequences)',
      );
    }
  }
}

/** Segmenters are costly to create; these are created once. Locale "en" keeps results host-independent. */
export const segmenters = {
  grapheme: new Intl.Segmenter('en', { granularity: 'grapheme' }),
  word: new Intl.Segmenter('en', { granularity: 'word' }),
  sentence: new Intl.Segmenter('en', { granularity: 'sentence' }),
} as const;

/** One segment found in a range: where it starts and ends in the whole text. */
export interface FoundSegment {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly isWordLike: boolean;
}

/**
 * Segments text[start, end) window by window and calls `visit` for each segment in order.
 * `window` must be larger than `margin`.
 */
export function segmentRange(
  segmenter: Intl.Segmenter,
  text: string,
  start: number,
  end: number,
  budget: SegmentBudget,
  visit: (segment: FoundSegment) => void,
  { window = 1024, margin = 64 }: { window?: number; margin?: number } = {},
): void {
  let position = start;
  let size = window;
  while (position < end) {
    const stop = Math.min(end, position + size);
    const piece = text.slice(position, stop);
    const final = stop === end;
    const trusted = final ? piece.length : piece.length - margin;
    const found: FoundSegment[] = [];
    for (const segment of segmenter.segment(piece)) {
      budget.spend(1);
      const segmentEnd = segment.index + segment.segment.length;
      if (segmentEnd > trusted) break;
      found.push({ start: position + segment.index, end: position + segmentEnd, text: segment.segment, isWordLike: segment.isWordLike === true });
    }
    if (found.length === 0) {
      // One segment reaches past the trusted part: look much further before deciding anything.
      size *= 4;
      continue;
    }
    for (const segment of found) visit(segment);
    position = found[found.length - 1]!.end;
    size = window;
  }
}
