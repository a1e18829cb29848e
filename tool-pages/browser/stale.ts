/**
 * The mark of an answer that belongs to an older input: the answer dimmed, and a line above it
 * saying why and what brings the new one. Set the moment the input changes, cleared when the
 * answer shown is the input's again. Used by the tool pages and the recipe page.
 */
import { h } from './dom.js';

export interface StaleMark {
  /** Marks the answer with `reason`, or clears the mark (undefined). */
  set(reason: string | undefined): void;
  readonly reason: string | undefined;
}

/** Puts the mark's line at the top of `body` (the answer's content) and dims `answer` while marked. */
export function staleMark(answer: HTMLElement, body: HTMLElement): StaleMark {
  const note = h('p', { class: 'stale-note', role: 'status', hidden: true });
  body.before(note);
  let current: string | undefined;
  return {
    set(reason) {
      if (reason === current) return;
      current = reason;
      answer.classList.toggle('stale', reason !== undefined);
      note.hidden = reason === undefined;
      note.textContent = reason ?? '';
    },
    get reason() {
      return current;
    },
  };
}
