/**
 * The address's requests, as the pages learn them from each answer's RateLimit-* headers: a quiet
 * count under the form that speaks up (colour, and read out) only near the end, and counts down to
 * the moment the count starts again. The figures and words are tool-pages/shared/pacing.ts.
 */
import { budgetLow, budgetNearEnd, budgetWords, DEFAULT_WINDOW_MS, type Budget } from '../shared/pacing.js';
import { h } from './dom.js';

export class BudgetLine {
  readonly element = h('p', { class: 'budget', hidden: true });
  private budget: Budget | undefined;
  /** The window's length: the longest RateLimit-Reset seen (an answer early in a window says nearly all of it). */
  windowMs = DEFAULT_WINDOW_MS;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly live: boolean) {}

  /** The limit the last answer named, 30 (the service's default) until one has. */
  get limit(): number {
    return this.budget?.limit ?? 30;
  }

  /** True while live answers must wait: few requests are left until the count starts again. */
  low(): boolean {
    return budgetLow(this.budget, Date.now());
  }

  /** Takes an answer's RateLimit-* headers (none when the service counts nothing, as for a key without a limit). */
  note(headers: Headers): void {
    const remaining = Number(headers.get('RateLimit-Remaining'));
    const limit = Number(headers.get('RateLimit-Limit'));
    const given = Number(headers.get('RateLimit-Reset'));
    if (!headers.has('RateLimit-Remaining') || !Number.isFinite(remaining) || !Number.isFinite(limit)) return;
    const reset = Number.isFinite(given) && given > 0 ? given : DEFAULT_WINDOW_MS / 1000;
    this.windowMs = Math.min(Math.max(this.windowMs, reset * 1000), 3_600_000);
    this.budget = { remaining, limit, resetAt: Date.now() + reset * 1000 };
    this.show();
  }

  private show(): void {
    clearTimeout(this.timer);
    const budget = this.budget;
    if (!budget) return;
    const now = Date.now();
    const near = budgetNearEnd(budget) && now < budget.resetAt;
    this.element.hidden = false;
    this.element.classList.toggle('low', near);
    // Read out only near the end: a count changing with every live answer would talk over the typing.
    if (near) this.element.setAttribute('aria-live', 'polite');
    else this.element.removeAttribute('aria-live');
    this.element.textContent = budgetWords(budget, now, this.live);
    if (near) this.timer = setTimeout(() => this.show(), 1000);
  }
}
