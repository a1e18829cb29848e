/**
 * How a live page spends the address's requests (the pages have no budget of their own): a live
 * answer is asked for only once typing pauses, and the pause it waits for grows once live answers
 * have spent their share of the window. Pure, so the figures are tested in Node; tool.ts keeps the
 * times and the last RateLimit-* headers, budget.ts says them.
 */

/** The pause that asks for a live answer while live answers have spent little of the window. */
export const SHORT_PAUSE_MS = 500;
/** The pause that asks for one after that: a person who stopped to read, not one between words. */
export const LONG_PAUSE_MS = 2000;
/** Live answers stop while this few requests or fewer are left, so Run still has some. */
export const LIVE_RESERVE = 5;
/** The window assumed until an answer's RateLimit-Reset says more (the service's default, one minute). */
export const DEFAULT_WINDOW_MS = 60_000;

/** RateLimit-* of the last answer: what is left for this address, and when the count starts again. */
export interface Budget {
  readonly remaining: number;
  readonly limit: number;
  readonly resetAt: number;
}

/** Live answers a window affords at the short pause: a thirtieth of the limit (1 of the default 30 a minute), at least 1. */
export const liveShare = (limit: number): number => Math.max(1, Math.floor(limit / 30));

/**
 * How long typing must pause before the next live answer is asked for, `now`, given when the last
 * live answers were sent, the window's length and the address's limit (30 until an answer says).
 */
export function pauseBefore(sent: readonly number[], now: number, windowMs: number, limit = 30): number {
  const recent = sent.filter((at) => now - at < windowMs).length;
  return recent < liveShare(limit) ? SHORT_PAUSE_MS : LONG_PAUSE_MS;
}

/** True while live answers must wait for the count to start again: few requests are left. */
export const budgetLow = (budget: Budget | undefined, now: number): boolean => budget !== undefined && budget.remaining <= LIVE_RESERVE && now < budget.resetAt;

/** When the count shown should speak up: at a quarter of the limit or the live reserve, whichever is more. */
export const budgetNearEnd = (budget: Budget): boolean => budget.remaining <= Math.max(LIVE_RESERVE, budget.limit / 4);

/** The budget line's words: a quiet count, a warning near the end, and at none left only when it starts again. */
export function budgetWords(budget: Budget, now: number, live: boolean): string {
  const seconds = Math.max(1, Math.ceil((budget.resetAt - now) / 1000));
  if (now >= budget.resetAt) return `The count of requests for this address has started again (${budget.limit} a window).`;
  if (budget.remaining <= 0) return `No requests left for this address: the count starts again in ${seconds} s.`;
  const left = `${budget.remaining} of ${budget.limit} requests left for this address`;
  if (!budgetNearEnd(budget)) return `${left}.`;
  const paused = live && budget.remaining <= LIVE_RESERVE ? ' Live answers wait until then; Run still works.' : '';
  return `Only ${left}; the count starts again in ${seconds} s.${paused}`;
}
