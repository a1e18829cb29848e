/**
 * Work counted, not timed: the edit distance behind every "did you mean" computes each cell of its
 * table with one Math.min call, so counting the calls counts the cells, on any machine under any load.
 */
export function countMinCalls(work: () => unknown): number {
  const min = Math.min;
  let calls = 0;
  Math.min = (...values: number[]) => {
    calls++;
    return min(...values);
  };
  try {
    work();
  } finally {
    Math.min = min;
  }
  return calls;
}
