/**
 * The bench's knobs: `npm run bench -- --quick --rounds 5 --only a,b`. Each flag may also come
 * from the environment as BENCH_<NAME> (`BENCH_LARGE_SECONDS=10`); a flag wins over the environment,
 * which wins over the defaults. `--quick` swaps in the defaults of a ~1-minute smoke run.
 */
import { parseArgs } from 'node:util';

/** The scenarios, by their letters in issue 14 (and later issues'); bench.ts runs them in its own list's order. */
export const SCENARIOS = {
  a: 'small bodies, keyed',
  b: 'small bodies, anonymous (no target)',
  c: 'large bodies',
  d: "cold start, and a pool operation's first call",
  e: 'idle memory (no target)',
  f: 'a third-party plugin in its own process (the default) against the same plugin trusted on the main thread, within its share',
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
  /** Cold starts per server; the median is reported, and each Toolshed start's first pool call is checked. */
  readonly starts: number;
  /** Pin servers and load generator to different cores (when taskset and two cores exist). */
  readonly pin: boolean;
}

type NumberKey = 'rounds' | 'seconds' | 'largeSeconds' | 'warmupSeconds' | 'connections' | 'starts';

// Thorough: about 6 minutes on two quiet cores. Quick: about a minute, numbers only good for a smoke test.
const thorough: Record<NumberKey, number> = { rounds: 3, seconds: 4, largeSeconds: 3, warmupSeconds: 1, connections: 32, starts: 7 };
const quick: Record<NumberKey, number> = { rounds: 1, seconds: 1, largeSeconds: 0.5, warmupSeconds: 0.25, connections: 32, starts: 3 };

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
    const whole = key === 'rounds' || key === 'connections' || key === 'starts';
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
