/**
 * The pure parts of `npm run bench`: medians, ratios, targets and plain-text tables. No I/O, so
 * report.test.ts can check them with values worked out by hand.
 */

/** The median; the mean of the two middle values when the count is even. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `part / whole`, or NaN when either is missing or the whole is 0 (a run that measured nothing). */
export function ratio(part: number | undefined, whole: number | undefined): number {
  if (part === undefined || whole === undefined || whole === 0 || !Number.isFinite(part) || !Number.isFinite(whole)) return Number.NaN;
  return part / whole;
}

/** A number with `digits` decimals, or an em dash when there is none to show. */
export function formatNumber(value: number | undefined, digits = 0): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

/** A ratio as `0.97`: two decimals, which is all a busy machine's measurement is worth. */
export function formatRatio(value: number | undefined): string {
  return formatNumber(value, 2);
}

/** Bytes as MiB with one decimal. */
export function formatMib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * A plain-text table: a header line, a rule, one line per row. The first `labelColumns` columns are
 * left-aligned (names), the others right-aligned (numbers); columns are separated by two spaces.
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], labelColumns = 1): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = cells[column] ?? '';
        return column < labelColumns ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** One goal of the issue, and what this run measured against it. */
export interface Target {
  readonly scenario: string;
  readonly name: string;
  readonly value: number;
  readonly comparison: '>=' | '<=';
  readonly goal: number;
  /** Appended to value and goal when printed (` ms`); ratios have none. */
  readonly unit?: string;
}

/** Whether a target is met; a value that could not be measured (NaN) meets nothing. */
export function targetMet(target: Target): boolean {
  if (Number.isNaN(target.value)) return false;
  return target.comparison === '>=' ? target.value >= target.goal : target.value <= target.goal;
}

/** `met    Toolshed / bare Koa, base64 by req/s: 0.97 (target ≥ 0.95)`, one line per target. */
export function renderTargets(targets: readonly Target[]): string {
  return targets
    .map((target) => {
      const unit = target.unit ?? '';
      const digits = unit === '' ? 2 : 1;
      const sign = target.comparison === '>=' ? '≥' : '≤';
      const verdict = targetMet(target) ? 'met   ' : 'MISSED';
      return `${verdict} ${target.scenario}: ${target.name}: ${formatNumber(target.value, digits)}${unit} (target ${sign} ${formatNumber(target.goal, digits)}${unit})`;
    })
    .join('\n');
}

/** The CPUs of a Linux cpu-list (`0-3,6`, as taskset prints it), in order. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (range === null) throw new SyntaxError(`not a cpu list: ${list}`);
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}
