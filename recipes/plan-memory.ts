/**
 * The checked steps of recipes run lately, by the steps as their JSON text: a client runs one
 * recipe on input after input, and checking its steps against the operations' schemas cost more
 * than running small steps (docs/decisions.md, "A recipe's steps are checked once"). The steps come
 * from requests, so what is kept is bounded: so many recipes, each of steps so long as JSON.
 */

/** Most recipes whose checked steps are kept, per catalog of operations; the least recently run goes first. */
export const REMEMBERED_RECIPES = 256;
/** Longest steps kept, as JSON text: a recipe with long literal values is checked every time. */
export const LONGEST_REMEMBERED_STEPS = 4096;

/** What a recipe's check found of its steps depends on them and on whether it gives an input; `undefined` when too long to keep. */
export function stepsKey(steps: readonly unknown[], hasInput: boolean): string | undefined {
  const text = JSON.stringify(steps);
  return text.length > LONGEST_REMEMBERED_STEPS ? undefined : `${hasInput ? 'input' : 'no input'} ${text}`;
}

/** At most {@link REMEMBERED_RECIPES} values by key; one looked up again becomes the most recent. */
export class PlanMemory<T> {
  readonly #values = new Map<string, T>();

  get(key: string): T | undefined {
    const value = this.#values.get(key);
    if (value !== undefined) {
      this.#values.delete(key);
      this.#values.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    if (this.#values.size >= REMEMBERED_RECIPES) this.#values.delete(this.#values.keys().next().value!);
    this.#values.set(key, value);
  }
}
