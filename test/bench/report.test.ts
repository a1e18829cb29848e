// The pure parts of npm run bench, with values worked out by hand. No timing is measured here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyOfSize, scenarioTable } from './load-scenarios.js';
import { SCENARIOS, parseOptions } from './options.js';
import { cleanRatio, formatMib, formatNumber, formatRatio, goalText, median, parseCpuList, ratio, renderMarkdownTable, renderTable, renderTargets, targetMet, valueText, verdict, type Target } from './report.js';
import { workersBooted } from './startup.js';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([7]), 7);
  });
  it('is the mean of the two middle values of an even count', () => {
    // sorted 1 2 3 4: (2 + 3) / 2
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
  it('refuses no values rather than inventing one', () => {
    assert.throws(() => median([]), RangeError);
  });
});

describe('ratio and number formatting', () => {
  it('divides, and gives NaN when there is nothing to divide by', () => {
    assert.equal(ratio(3, 4), 0.75);
    assert.ok(Number.isNaN(ratio(1, 0)));
    assert.ok(Number.isNaN(ratio(undefined, 2)));
    assert.ok(Number.isNaN(ratio(2, Number.NaN)));
  });
  it('compares rows only when neither had a refusal or a failure', () => {
    const served = { rps: 30, failures: 0 };
    const alsoServed = { rps: 40, failures: 0 };
    // 30 / 40
    assert.equal(cleanRatio(served, alsoServed, (row) => row.rps), 0.75);
    // The 9 MiB rows of one run: 329 answers were 429s, counted as requests, and made the ratio 4.60.
    assert.ok(Number.isNaN(cleanRatio({ rps: 25, failures: 329 }, alsoServed, (row) => row.rps)));
    assert.ok(Number.isNaN(cleanRatio(served, { rps: 6, failures: 1 }, (row) => row.rps)));
  });
  it('prints ratios with two decimals and a dash for what was not measured', () => {
    assert.equal(formatRatio(2 / 3), '0.67');
    assert.equal(formatRatio(0.75), '0.75');
    assert.equal(formatRatio(Number.NaN), '—');
    assert.equal(formatNumber(1234.56), '1235');
    assert.equal(formatNumber(1234.56, 1), '1234.6');
    assert.equal(formatNumber(undefined), '—');
    // 1.5 × 2^20 bytes
    assert.equal(formatMib(1_572_864), '1.5 MiB');
  });
});

describe('renderTable', () => {
  it('pads the first column left-aligned and the others right-aligned, two spaces apart', () => {
    // Widths: column 1 = max("name", "ab", "c") = 4, column 2 = max("n", "1", "100") = 3.
    const table = renderTable(['name', 'n'], [['ab', '1'], ['c', '100']]);
    assert.equal(table, ['name    n', '----  ---', 'ab      1', 'c     100'].join('\n'));
    // Two label columns: "x" is padded on the right to the width of "kind" (4).
    assert.equal(renderTable(['name', 'kind', 'n'], [['ab', 'x', '7']], 2), ['name  kind  n', '----  ----  -', 'ab    x     7'].join('\n'));
  });
});

describe('scenarioTable', () => {
  it('divides req/s by the reference and the reference CPU per request by the row, so above 1 is better', () => {
    const measured = [
      { server: 'koa' as const, label: 'hash', rps: 1000, cpuUs: 100, p50Ms: 1, p99Ms: 2, failures: 0 },
      { server: 'toolshed' as const, label: 'hash', rps: 950, cpuUs: 125, p50Ms: 1, p99Ms: 2, failures: 0 },
    ];
    const lines = scenarioTable(measured, ['koa']).split('\n');
    assert.deepEqual(lines[0]?.split(/ {2,}/), ['operation', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'failed', '×Koa req/s', '×Koa CPU']);
    // Toolshed: 950 / 1000 = 0.95 by req/s; 100 / 125 = 0.80 by CPU per request.
    assert.deepEqual(lines[3]?.split(/ {2,}/), ['hash', 'Toolshed', '950', '1', '2', '125.0', '0', '0.95', '0.80']);
    assert.deepEqual(lines[2]?.split(/ {2,}/), ['hash', 'bare Koa', '1000', '1', '2', '100.0', '0', '1.00', '1.00']);
  });
});

describe('targets', () => {
  const atLeast: Target = { scenario: '(a) small', name: 'Toolshed / bare Koa, hash, by req/s', value: 0.9712, comparison: '>=', goal: 0.95 };
  const atMost: Target = { scenario: '(d) start', name: 'cold start, Toolshed / bare Koa', value: 1.7, comparison: '<=', goal: 1.64 };
  const under: Target = { scenario: 'attack', name: 'healthz p99', value: 249.96, comparison: '<', goal: 250, unit: ' ms' };
  const count: Target = { scenario: '(d) start', name: 'workers booted', value: 0, comparison: '<=', goal: 0, unit: '', digits: 0 };
  it('is met on the goal itself for ≥ and ≤, missed on it for <, missed past it; NaN meets nothing', () => {
    assert.equal(targetMet({ ...atLeast, value: 0.95 }), true);
    assert.equal(targetMet({ ...atLeast, value: 0.94 }), false);
    assert.equal(targetMet({ ...atMost, value: 1.64 }), true);
    assert.equal(targetMet(atMost), false);
    assert.equal(targetMet(under), true);
    assert.equal(targetMet({ ...under, value: 250 }), false);
    assert.equal(targetMet({ ...atMost, value: Number.NaN }), false);
    assert.equal(verdict(count), 'met');
    assert.equal(verdict({ ...count, value: 1 }), 'MISSED');
  });
  it('prints goal and value with two decimals for ratios, one with a unit, or the digits asked for', () => {
    assert.equal(goalText(atLeast), '≥ 0.95');
    assert.equal(goalText(under), '< 250.0 ms');
    assert.equal(valueText({ ...under, value: 31.27 }), '31.3 ms');
    // 249.96 rounds to the goal's 250.0; it is under it, and printed so.
    assert.equal(valueText(under), '249.96 ms');
    assert.equal(goalText(count), '≤ 0');
    assert.equal(valueText({ ...count, value: Number.NaN }), '—');
    // 0.8989 would print as the goal 0.90: one more decimal shows why it is missed.
    assert.equal(valueText({ ...atLeast, value: 0.8989, goal: 0.9 }), '0.899');
    assert.equal(valueText({ ...atLeast, value: 0.9, goal: 0.9 }), '0.90');
  });
  it('prints one line per target: verdict, value and goal', () => {
    assert.equal(
      renderTargets([atLeast, atMost, count]),
      [
        'met    (a) small: Toolshed / bare Koa, hash, by req/s: 0.97 (target ≥ 0.95)',
        'MISSED (d) start: cold start, Toolshed / bare Koa: 1.70 (target ≤ 1.64)',
        'met    (d) start: workers booted: 0 (target ≤ 0)',
      ].join('\n'),
    );
  });
});

describe('renderMarkdownTable', () => {
  it('pads every cell to its column and draws the rule two wider than the column', () => {
    // Widths: max("measure", "valid") = 7, max("ok", "met", "MISSED") = 6.
    assert.equal(
      renderMarkdownTable(['measure', 'ok'], [['valid', 'met'], ['x', 'MISSED']]),
      ['| measure | ok     |', '|---------|--------|', '| valid   | met    |', '| x       | MISSED |'].join('\n'),
    );
  });
});

describe('workersBooted', () => {
  const call = { warmUpMs: 40, callMs: 3, threadsBefore: 1, threadsAfter: 1 };
  it('is the most workers any first pool call added: 0 when each found one alive', () => {
    assert.equal(workersBooted([call, call]), 0);
    // The second start's call found no worker and booted one.
    assert.equal(workersBooted([call, { ...call, threadsBefore: 0 }]), 1);
  });
  it('measures nothing without a start, or when a call left no worker (it did not run on the pool)', () => {
    assert.ok(Number.isNaN(workersBooted([])));
    assert.ok(Number.isNaN(workersBooted([{ ...call, threadsBefore: 0, threadsAfter: 0 }])));
  });
});

describe('parseCpuList', () => {
  it('expands ranges as taskset prints them', () => {
    assert.deepEqual(parseCpuList('0-3,6'), [0, 1, 2, 3, 6]);
    assert.deepEqual(parseCpuList('1'), [1]);
    assert.throws(() => parseCpuList('one'), SyntaxError);
  });
});

describe('parseOptions', () => {
  it('takes the thorough defaults, the quick ones with --quick, a flag over the environment over the defaults', () => {
    const thorough = parseOptions([], {});
    assert.equal(thorough.quick, false);
    assert.equal(thorough.rounds, 3);
    assert.equal(thorough.starts, 7);
    assert.equal(thorough.pin, true);
    assert.deepEqual([...thorough.scenarios], Object.keys(SCENARIOS));
    const quick = parseOptions(['--quick'], {});
    assert.equal(quick.rounds, 1);
    assert.equal(quick.starts, 3);
    assert.equal(parseOptions(['--quick'], { BENCH_STARTS: '12' }).starts, 12);
    assert.equal(parseOptions(['--starts', '20'], { BENCH_STARTS: '12' }).starts, 20);
    assert.equal(parseOptions(['--large-seconds', '0.5'], {}).largeSeconds, 0.5);
    assert.deepEqual([...parseOptions(['--only', 'a,c', '--no-pin'], {}).scenarios], ['a', 'c']);
    assert.equal(parseOptions(['--no-pin'], {}).pin, false);
  });
  it('names the bad flag', () => {
    assert.throws(() => parseOptions(['--rounds', '1.5'], {}), /--rounds \(or BENCH_ROUNDS\) must be a positive whole number/);
    assert.throws(() => parseOptions(['--only', 'a,z'], {}), /not z/);
    assert.throws(() => parseOptions(['--rounds'], {}));
  });
});

describe('bodyOfSize', () => {
  it('builds a JSON body of exactly the size asked for', () => {
    const body = bodyOfSize(100);
    assert.equal(Buffer.byteLength(body), 100);
    // 100 bytes minus the 11 of {"text":""}
    assert.equal((JSON.parse(body) as { text: string }).text.length, 89);
  });
});
