// The pure parts of npm run bench, with values worked out by hand. No timing is measured here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyOfSize, scenarioTable } from './load-scenarios.js';
import { parseOptions } from './options.js';
import { formatMib, formatNumber, formatRatio, median, parseCpuList, ratio, renderTable, renderTargets, targetMet, type Target } from './report.js';

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
      { server: 'toolshed' as const, label: 'hash', rps: 950, cpuUs: 125, p50Ms: 1, p99Ms: 2, failures: 0, blockMs: 4.25 },
    ];
    const lines = scenarioTable(measured, ['koa']).split('\n');
    assert.deepEqual(lines[0]?.split(/ {2,}/), ['operation', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'failed', '×Koa req/s', '×Koa CPU']);
    // Toolshed: 950 / 1000 = 0.95 by req/s; 100 / 125 = 0.80 by CPU per request.
    assert.deepEqual(lines[3]?.split(/ {2,}/), ['hash', 'Toolshed', '950', '1', '2', '125.0', '0', '0.95', '0.80']);
    assert.deepEqual(lines[2]?.split(/ {2,}/), ['hash', 'bare Koa', '1000', '1', '2', '100.0', '0', '1.00', '1.00']);
    // With the longest block (scenario c): one column more, after failed, one decimal; a dash where none was measured.
    const withBlock = scenarioTable(measured, ['koa'], true).split('\n');
    assert.deepEqual(withBlock[3]?.split(/ {2,}/), ['hash', 'Toolshed', '950', '1', '2', '125.0', '0', '4.3', '0.95', '0.80']);
    assert.deepEqual(withBlock[2]?.split(/ {2,}/), ['hash', 'bare Koa', '1000', '1', '2', '100.0', '0', '—', '1.00', '1.00']);
  });
});

describe('targets', () => {
  const atLeast: Target = { scenario: '(a) small', name: 'Toolshed / bare Koa, hash, by req/s', value: 0.9712, comparison: '>=', goal: 0.95 };
  const atMost: Target = { scenario: '(d) start', name: 'worst first call', value: 2.46, comparison: '<=', goal: 2, unit: ' ms' };
  it('is met on the goal itself and missed past it; NaN meets nothing', () => {
    assert.equal(targetMet({ ...atLeast, value: 0.95 }), true);
    assert.equal(targetMet({ ...atLeast, value: 0.94 }), false);
    assert.equal(targetMet({ ...atMost, value: 2 }), true);
    assert.equal(targetMet(atMost), false);
    assert.equal(targetMet({ ...atMost, value: Number.NaN }), false);
  });
  it('prints one line per target: verdict, value and goal', () => {
    assert.equal(
      renderTargets([atLeast, atMost]),
      ['met    (a) small: Toolshed / bare Koa, hash, by req/s: 0.97 (target ≥ 0.95)', 'MISSED (d) start: worst first call: 2.5 ms (target ≤ 2.0 ms)'].join('\n'),
    );
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
    assert.equal(thorough.loadSeconds, 60);
    assert.equal(thorough.pin, true);
    assert.deepEqual([...thorough.scenarios], ['a', 'b', 'c', 'd', 'e', 'f', 'm', 'r']);
    const quick = parseOptions(['--quick'], {});
    assert.equal(quick.rounds, 1);
    assert.equal(quick.loadSeconds, 5);
    assert.equal(parseOptions(['--quick'], { BENCH_LOAD_SECONDS: '12' }).loadSeconds, 12);
    assert.equal(parseOptions(['--load-seconds', '20'], { BENCH_LOAD_SECONDS: '12' }).loadSeconds, 20);
    assert.deepEqual([...parseOptions(['--only', 'a,c', '--no-pin'], {}).scenarios], ['a', 'c']);
    assert.equal(parseOptions(['--no-pin'], {}).pin, false);
  });
  it('names the bad flag', () => {
    assert.throws(() => parseOptions(['--rounds', '1.5'], {}), /--rounds \(or BENCH_ROUNDS\) must be a positive whole number/);
    assert.throws(() => parseOptions(['--only', 'a,g'], {}), /not g/);
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
