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

/**
 * `of(part) / of(whole)`, or NaN (met by nothing) when either row had a refusal or a failure: a 429
 * or 503 is answered faster than the work, so a ratio counting it would flatter the refusing side.
 */
export function cleanRatio<Row extends { readonly failures: number }>(part: Row | undefined, whole: Row | undefined, of: (row: Row) => number): number {
  if (part === undefined || whole === undefined || part.failures > 0 || whole.failures > 0) return Number.NaN;
  return ratio(of(part), of(whole));
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

/** One kept target (issue 38, item 7), and what this run measured against it. */
export interface Target {
  readonly scenario: string;
  readonly name: string;
  readonly value: number;
  /** `<` where the issue says "under" or "less than" (a value on the goal misses), `<=`/`>=` where it says at most / at least. */
  readonly comparison: '>=' | '<=' | '<';
  readonly goal: number;
  /** Appended to value and goal when printed (` ms`); ratios have none. */
  readonly unit?: string;
  /** Decimals of value and goal; by default 2 for ratios (no unit) and 1 otherwise. */
  readonly digits?: number;
}

/** Whether a target is met; a value that could not be measured (NaN) meets nothing. */
export function targetMet(target: Target): boolean {
  if (Number.isNaN(target.value)) return false;
  if (target.comparison === '>=') return target.value >= target.goal;
  if (target.comparison === '<=') return target.value <= target.goal;
  return target.value < target.goal;
}

/** `met` or `MISSED`: the words both reports print. */
export function verdict(target: Target): 'met' | 'MISSED' {
  return targetMet(target) ? 'met' : 'MISSED';
}

const digitsOf = (target: Target): number => target.digits ?? ((target.unit ?? '') === '' ? 2 : 1);

/** The goal as printed: `≥ 0.95`, `< 250 ms`. */
export function goalText(target: Target): string {
  const sign = { '>=': '≥', '<=': '≤', '<': '<' }[target.comparison];
  return `${sign} ${formatNumber(target.goal, digitsOf(target))}${target.unit ?? ''}`;
}

/**
 * The measured value as printed: `0.97`, `2.5 ms`, a dash when it could not be measured. A value
 * that would print as its goal without being it gets more decimals (`0.899` against `0.90`), so
 * the line never reads as the goal itself MISSED.
 */
export function valueText(target: Target): string {
  if (Number.isNaN(target.value)) return '—';
  let digits = digitsOf(target);
  while (digits < 6 && target.value !== target.goal && formatNumber(target.value, digits) === formatNumber(target.goal, digits)) digits++;
  return `${formatNumber(target.value, digits)}${target.unit ?? ''}`;
}

/** `met    (a) small: Toolshed / bare Koa, base64 by req/s: 0.97 (target ≥ 0.95)`, one line per target. */
export function renderTargets(targets: readonly Target[]): string {
  return targets.map((target) => `${verdict(target).padEnd(6)} ${target.scenario}: ${target.name}: ${valueText(target)} (target ${goalText(target)})`).join('\n');
}

/** What one scenario of `npm run bench` prints (its table) and holds (its kept targets; none for a measurement without one). */
export interface ScenarioOutcome {
  readonly table: string;
  readonly targets: readonly Target[];
}

/**
 * A Markdown table (`npm run loadtest`'s, pasted into notes as it is): cells padded to their
 * column's width, a `|---|` rule under the header.
 */
export function renderMarkdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`;
  return [line(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
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
