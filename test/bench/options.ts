/**
 * The bench's knobs: `npm run bench -- --quick --rounds 5 --only a,b`. Each flag may also come
 * from the environment as BENCH_<NAME> (`BENCH_LOAD_SECONDS=10`); a flag wins over the environment,
 * which wins over the defaults. `--quick` swaps in the defaults of a ~1-minute smoke run.
 */
import { parseArgs } from 'node:util';

/** The scenarios of issue 14, by their letters there. */
export const SCENARIOS = {
  a: 'small bodies, keyed',
  b: 'small bodies, anonymous',
  c: 'large bodies',
  d: 'cold start and first requests',
  e: 'memory',
  f: 'a third-party plugin on the worker pool (the default) against the same plugin trusted on the main thread',
  m: 'MCP tools/call against the same POST (issue 23)',
  r: 'a 3-step recipe against the same three POSTs, and identify (issue 40)',
} as const;
export type Scenario = keyof typeof SCENARIOS;

export interface BenchOptions {
  readonly quick: boolean;
  readonly scenarios: ReadonlySet<Scenario>;
  /** Interleaved rounds per measurement; the median is reported. */
  readonly rounds: number;
  /** Seconds of load per server and operation in one round, small bodies. */
  readonly seconds: number;
  /** The same for the 100 KiB, 1 MiB and 9 MiB bodies. */
  readonly largeSeconds: number;
  /** Seconds of unmeasured load per server and operation before the first round. */
  readonly warmupSeconds: number;
  /** Concurrent connections for small bodies (large bodies use fewer; see large-bodies.ts). */
  readonly connections: number;
  /** Cold starts per server; the median is reported. */
  readonly starts: number;
  /** Which call of every operation is compared with its first (the issue's hundredth). */
  readonly nth: number;
  /** Seconds of keyed load before the after-load RSS is taken (the issue's 60). */
  readonly loadSeconds: number;
  /** Longest wait, after that load, for the RSS to come back within 15 % of idle (the target). */
  readonly settleSeconds: number;
  /** Pin servers and load generator to different cores (when taskset and two cores exist). */
  readonly pin: boolean;
}

type NumberKey = 'rounds' | 'seconds' | 'largeSeconds' | 'warmupSeconds' | 'connections' | 'starts' | 'nth' | 'loadSeconds' | 'settleSeconds';

// Thorough: about 8-9 minutes on two cores. Quick: about a minute, numbers only good for a smoke test.
const thorough: Record<NumberKey, number> = { rounds: 3, seconds: 4, largeSeconds: 3, warmupSeconds: 1, connections: 32, starts: 7, nth: 100, loadSeconds: 60, settleSeconds: 30 };
const quick: Record<NumberKey, number> = { rounds: 1, seconds: 1, largeSeconds: 0.5, warmupSeconds: 0.25, connections: 32, starts: 3, nth: 100, loadSeconds: 5, settleSeconds: 5 };

const flagOf = (key: string): string => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const envOf = (key: string): string => `BENCH_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;

/** Reads the flags and BENCH_* variables; throws a message naming the bad one. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const numberKeys = Object.keys(thorough) as NumberKey[];
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      'no-pin': { type: 'boolean' },
      only: { type: 'string' },
      ...Object.fromEntries(numberKeys.map((key) => [flagOf(key), { type: 'string' as const }])),
    },
    strict: true,
  });
  const isQuick = values.quick === true || env.BENCH_QUICK === '1';
  const defaults = isQuick ? quick : thorough;
  const numbers = {} as Record<NumberKey, number>;
  for (const key of numberKeys) {
    const given = (values as Record<string, string | boolean | undefined>)[flagOf(key)]?.toString() ?? env[envOf(key)];
    const value = given === undefined || given === '' ? defaults[key] : Number(given);
    const whole = key === 'rounds' || key === 'connections' || key === 'starts' || key === 'nth';
    if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
      throw new RangeError(`--${flagOf(key)} (or ${envOf(key)}) must be a positive ${whole ? 'whole ' : ''}number, not ${given}`);
    }
    numbers[key] = value;
  }
  const only = (values.only as string | undefined) ?? env.BENCH_ONLY;
  const letters = only === undefined || only === '' ? Object.keys(SCENARIOS) : only.split(',').map((letter) => letter.trim());
  for (const letter of letters) if (!(letter in SCENARIOS)) throw new RangeError(`--only takes letters of ${Object.keys(SCENARIOS).join(', ')}, not ${letter}`);
  return {
    quick: isQuick,
    scenarios: new Set(letters as Scenario[]),
    pin: values['no-pin'] !== true && env.BENCH_NO_PIN !== '1',
    ...numbers,
  };
}
