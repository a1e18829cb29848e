/**
 * The answers one composite run holds at once (a recipe's intermediate answers, kept until a later
 * step reads them): every byte counted against the host's answer budget and against a cap per run,
 * the answer cap (`server.maxAnswerBytes`), so a chain of amplifying steps is refused instead of
 * holding gigabytes. Whatever is still held is given back when the run ends.
 */
import { ServerBusyError, UnprocessableError } from '@toolshed/plugin-sdk';
import type { Answer } from './answer.js';
import type { ByteBudget } from './byte-budget.js';

export interface HeldAnswers {
  /** Holds `answer`'s bytes until {@link drop} or the end of the run: 422 `output_too_large` past the run's cap, 503 past the shared budget. */
  hold(answer: Answer): void;
  /** Gives back `answer`'s bytes (an answer no later step reads). */
  drop(answer: Answer): void;
  /** Bytes held now. */
  readonly bytes: number;
}

export class AnswerLedger implements HeldAnswers {
  #held = new Set<Answer>();
  #bytes = 0;

  constructor(
    private readonly budget: ByteBudget | undefined,
    private readonly capBytes: number,
  ) {}

  get bytes(): number {
    return this.#bytes;
  }

  hold(answer: Answer): void {
    if (this.#held.has(answer)) return;
    const total = this.#bytes + answer.bytes;
    if (total > this.capBytes) throw new UnprocessableError('output_too_large', `The answers held at once would be ${total} bytes; at most ${this.capBytes} may be`);
    if (this.budget !== undefined && !this.budget.tryTake(answer.bytes)) throw new ServerBusyError('The service is holding too much data at once; retry shortly');
    this.#held.add(answer);
    this.#bytes = total;
  }

  drop(answer: Answer): void {
    if (!this.#held.delete(answer)) return;
    this.#bytes -= answer.bytes;
    this.budget?.give(answer.bytes);
  }

  /** Gives back everything still held. */
  close(): void {
    for (const answer of this.#held) this.drop(answer);
  }
}
