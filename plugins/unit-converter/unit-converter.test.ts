import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import unitConverter from './index.js';
import { CATEGORY_NAMES, UNITS } from './units.data.js';

interface Entry {
  unit: string;
  symbol: string;
  value: number;
}
interface Conversion {
  input: Entry;
  results: Entry[];
}

async function run(body: Record<string, unknown>): Promise<Conversion> {
  return (await invoke(unitConverter, 'convert', body)) as Conversion;
}

/** The single converted value of `value` `from` → `to`. */
async function one(value: number, category: string, from: string, to: string): Promise<number> {
  const { results } = await run({ value, category, from, to });
  assert.equal(results.length, 1);
  return results[0]!.value;
}

/** Every converted value of `value` `from`, keyed by unit id. */
async function all(value: number, category: string, from: string): Promise<Record<string, number>> {
  const { results } = await run({ value, category, from });
  return Object.fromEntries(results.map((entry) => [entry.unit, entry.value]));
}

describe('unit-converter.convert: the examples', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of unitConverter.operations.convert!.examples) {
      assert.deepEqual(await run(example.body), example.response);
    }
  });
});

describe('unit-converter: the unit table', () => {
  it('holds exactly the ids of issue 4, in its order, lowercase ASCII', () => {
    const issue: Record<string, string> = {
      length: 'm km cm mm um nm mi yd ft in nmi',
      mass: 'kg g mg ug t lb oz st',
      temperature: 'c f k r',
      volume: 'l ml cl dl m3 cm3 gal galuk qt pt cup floz tbsp tsp',
      area: 'm2 km2 cm2 mm2 ha a ac ft2 in2 yd2 mi2',
      speed: 'mps kmh mph kn fps',
      time: 'ns us ms s min h d wk mo yr',
      data: 'bit b kb mb gb tb pb kib mib gib tib pib',
      pressure: 'pa hpa kpa mpa bar mbar atm psi torr mmhg',
      energy: 'j kj mj wh kwh cal kcal btu ev',
    };
    assert.deepEqual([...CATEGORY_NAMES], Object.keys(issue));
    for (const category of CATEGORY_NAMES) assert.deepEqual(UNITS[category].map((unit) => unit.id).join(' '), issue[category]);
  });
});

describe('unit-converter.convert: NIST SP 811 factors', () => {
  it('length (B.8: in = 0.0254 m, ft = 0.3048 m, yd = 0.9144 m, mi = 1609.344 m, nmi = 1852 m)', async () => {
    assert.equal(await one(1, 'length', 'in', 'cm'), 2.54); // 0.0254 / 0.01
    assert.equal(await one(1, 'length', 'mi', 'km'), 1.609344);
    assert.equal(await one(1, 'length', 'mi', 'ft'), 5280); // 1609.344 / 0.3048
    assert.equal(await one(1, 'length', 'yd', 'in'), 36); // 0.9144 / 0.0254
    assert.equal(await one(1, 'length', 'um', 'nm'), 1000);
    // 1 m in every unit, table order; the inverses rounded to 12 digits by hand:
    // 1/1609.344 = 0.000621371192237|33…  1/0.9144 = 1.09361329833|77…  1/0.3048 = 3.28083989501|31…
    // 1/0.0254 = 39.3700787401|57…  1/1852 = 0.000539956803455|72…
    assert.deepEqual(await all(1, 'length', 'm'), {
      m: 1,
      km: 0.001,
      cm: 100,
      mm: 1000,
      um: 1e6,
      nm: 1e9,
      mi: 0.000621371192237,
      yd: 1.09361329834,
      ft: 3.28083989501,
      in: 39.3700787402,
      nmi: 0.000539956803456,
    });
  });

  it('mass (B.8: lb = 0.453 592 37 kg, oz = lb/16, t = 1000 kg; stone = 14 lb)', async () => {
    assert.equal(await one(1, 'mass', 'lb', 'kg'), 0.45359237);
    assert.equal(await one(1, 'mass', 'lb', 'oz'), 16);
    assert.equal(await one(1, 'mass', 'st', 'lb'), 14);
    assert.equal(await one(1, 'mass', 'st', 'kg'), 6.35029318); // 14 × 0.45359237
    assert.equal(await one(1, 'mass', 'kg', 'lb'), 2.20462262185); // 1/0.45359237 = 2.20462262184|87…
    assert.equal(await one(1, 'mass', 't', 'kg'), 1000);
    assert.equal(await one(1, 'mass', 'g', 'ug'), 1e6);
    assert.equal(await one(1, 'mass', 'mg', 'g'), 0.001);
  });

  it('temperature (B.8: T/K = t/°C + 273.15 = (t/°F + 459.67)/1.8 = (T/°R)/1.8)', async () => {
    // 100 °C = 373.15 K; × 1.8 = 671.67 °R; − 459.67 = 212 °F
    assert.deepEqual(await all(100, 'temperature', 'c'), { c: 100, f: 212, k: 373.15, r: 671.67 });
    assert.equal(await one(-40, 'temperature', 'c', 'f'), -40); // −40 × 1.8 + 32
    assert.equal(await one(37, 'temperature', 'c', 'f'), 98.6); // 37 × 1.8 + 32 = 66.6 + 32
    assert.equal(await one(98.6, 'temperature', 'f', 'c'), 37); // (98.6 − 32) / 1.8
    assert.equal(await one(32, 'temperature', 'f', 'k'), 273.15); // (32 + 459.67) / 1.8 = 491.67 / 1.8
    assert.equal(await one(491.67, 'temperature', 'r', 'c'), 0); // 491.67 / 1.8 − 273.15
    // Absolute zero in each scale, and −273.15 °C lands on 0 K exactly, not on 2.27e-14 K.
    assert.deepEqual(await all(0, 'temperature', 'k'), { c: -273.15, f: -459.67, k: 0, r: 0 });
    assert.equal(await one(-273.15, 'temperature', 'c', 'k'), 0);
    assert.equal(await one(-459.67, 'temperature', 'f', 'k'), 0);
  });

  it('refuses temperatures below absolute zero with 422 below_absolute_zero', async () => {
    await rejectsWith(run({ value: -273.16, category: 'temperature', from: 'c', to: 'k' }), 422, 'below_absolute_zero');
    await rejectsWith(run({ value: -459.68, category: 'temperature', from: 'f' }), 422, 'below_absolute_zero');
    await rejectsWith(run({ value: -0.001, category: 'temperature', from: 'k', to: 'c' }), 422, 'below_absolute_zero');
    await rejectsWith(run({ value: -1, category: 'temperature', from: 'r', to: 'r' }), 422, 'below_absolute_zero');
  });

  it('volume (B.8: L = 0.001 m³, US gal = 231 in³ = 3.785 411 784 L, UK gal = 4.546 09 L)', async () => {
    assert.equal(await one(1, 'volume', 'gal', 'l'), 3.785411784);
    assert.equal(await one(1, 'volume', 'galuk', 'l'), 4.54609);
    // 4.54609 / 3.785411784 = 1.20094992550|49…
    assert.equal(await one(1, 'volume', 'galuk', 'gal'), 1.2009499255);
    const gallon = await all(1, 'volume', 'gal');
    assert.deepEqual([gallon.qt, gallon.pt, gallon.cup, gallon.floz, gallon.tbsp, gallon.tsp], [4, 8, 16, 128, 256, 768]);
    assert.equal(await one(1, 'volume', 'cup', 'ml'), 236.5882365); // 3785.411784 mL / 16
    assert.equal(await one(1, 'volume', 'floz', 'ml'), 29.5735295625); // 3785.411784 mL / 128
    assert.equal(await one(1, 'volume', 'tbsp', 'tsp'), 3);
    assert.deepEqual(await all(1, 'volume', 'l').then((l) => [l.ml, l.cl, l.dl, l.m3, l.cm3]), [1000, 100, 10, 0.001, 1000]);
  });

  it('area (B.8: ft² = 0.092 903 04 m², in² = 0.000 645 16 m², ha = 10 000 m²; acre = 43 560 ft²)', async () => {
    assert.equal(await one(1, 'area', 'ac', 'm2'), 4046.8564224); // 43 560 × 0.09290304
    assert.equal(await one(1, 'area', 'ha', 'ac'), 2.47105381467); // 10 000 / 4046.8564224 = 2.47105381467|16…
    assert.equal(await one(1, 'area', 'mi2', 'ac'), 640); // 1609.344² / 4046.8564224 = 2 589 988.110336 / 4046.8564224
    assert.equal(await one(1, 'area', 'mi2', 'km2'), 2.58998811034); // 2.589988110336 → 12 digits
    assert.equal(await one(1, 'area', 'ft2', 'in2'), 144);
    assert.equal(await one(1, 'area', 'yd2', 'ft2'), 9);
    assert.equal(await one(1, 'area', 'km2', 'ha'), 100);
    assert.equal(await one(1, 'area', 'ha', 'a'), 100);
    assert.deepEqual(await all(1, 'area', 'm2').then((m2) => [m2.cm2, m2.mm2]), [10000, 1e6]);
  });

  it('speed (B.8: mi/h = 0.447 04 m/s, knot = 1852/3600 m/s, ft/s = 0.3048 m/s)', async () => {
    assert.equal(await one(1, 'speed', 'kn', 'kmh'), 1.852);
    assert.equal(await one(1, 'speed', 'mph', 'kmh'), 1.609344);
    assert.equal(await one(1, 'speed', 'mps', 'kmh'), 3.6);
    assert.equal(await one(100, 'speed', 'kmh', 'mps'), 27.7777777778); // 100 / 3.6 = 27.7777777777|77…
    assert.equal(await one(1, 'speed', 'fps', 'mph'), 0.681818181818); // 0.3048 / 0.44704 = 15/22 = 0.681818181818|18…
  });

  it('time (B.8 day = 86 400 s; year = 365.2425 days, month = year/12)', async () => {
    assert.equal(await one(1, 'time', 'yr', 'd'), 365.2425);
    assert.equal(await one(1, 'time', 'yr', 's'), 31556952); // 365.2425 × 86 400
    assert.equal(await one(1, 'time', 'mo', 'd'), 30.436875); // 365.2425 / 12
    assert.equal(await one(1, 'time', 'wk', 'h'), 168);
    assert.equal(await one(1, 'time', 'h', 'min'), 60);
    assert.deepEqual(await all(1, 'time', 's').then((s) => [s.ns, s.us, s.ms, s.d]), [1e9, 1e6, 1000, 0.0000115740740741]);
  });

  it('data (decimal kB… and binary KiB…, 1 B = 8 bit)', async () => {
    assert.equal(await one(1, 'data', 'b', 'bit'), 8);
    assert.equal(await one(1, 'data', 'kib', 'b'), 1024);
    assert.equal(await one(1, 'data', 'mib', 'kb'), 1048.576);
    assert.equal(await one(1, 'data', 'gb', 'mib'), 953.674316406); // 10^9 / 2^20 = 953.674316406|25
    assert.equal(await one(1, 'data', 'tb', 'gib'), 931.322574615); // 10^12 / 2^30 = 931.322574615|478…
    assert.equal(await one(1, 'data', 'pib', 'pb'), 1.12589990684); // 2^50 / 10^15 = 1.12589990684|2624
  });

  it('pressure (B.8: atm = 101 325 Pa, bar = 10^5 Pa, torr = atm/760, psi = lbf/in², mmHg conventional)', async () => {
    // psi: 0.45359237 × 9.80665 / 0.00064516 = 6894.75729316|836… Pa; atm/psi = 14.6959487755|13…
    // mmHg: 13 595.1 × 0.001 × 9.80665 = 133.322387415 Pa; atm/mmHg = 759.999891725|61…
    assert.deepEqual(await all(1, 'pressure', 'atm'), {
      pa: 101325,
      hpa: 1013.25,
      kpa: 101.325,
      mpa: 0.101325,
      bar: 1.01325,
      mbar: 1013.25,
      atm: 1,
      psi: 14.6959487755,
      torr: 760,
      mmhg: 759.999891726,
    });
    assert.equal(await one(1, 'pressure', 'psi', 'pa'), 6894.75729317);
    assert.equal(await one(1, 'pressure', 'torr', 'pa'), 133.322368421); // 101 325 / 760 = 133.322368421|05…
    assert.equal(await one(1, 'pressure', 'mmhg', 'pa'), 133.322387415);
  });

  it('energy (B.8: W·h = 3600 J, cal_th = 4.184 J, Btu_IT = 1055.055 852 62 J; eV = 1.602 176 634e-19 J)', async () => {
    assert.deepEqual(await all(1, 'energy', 'kwh').then((e) => [e.j, e.kj, e.mj, e.wh]), [3.6e6, 3600, 3.6, 1000]);
    assert.equal(await one(1, 'energy', 'kcal', 'j'), 4184);
    assert.equal(await one(1, 'energy', 'kcal', 'cal'), 1000);
    assert.equal(await one(1, 'energy', 'btu', 'j'), 1055.05585262);
    assert.equal(await one(1, 'energy', 'ev', 'j'), 1.602176634e-19);
    assert.equal(await one(1, 'energy', 'kj', 'cal'), 239.005736138); // 1000 / 4.184 = 239.005736137|67…
  });
});

describe('unit-converter.convert: behaviour', () => {
  it('hides float noise: 0.3 m is 30 cm and 1.1 ft is 13.2 in', async () => {
    assert.equal(await one(0.3, 'length', 'm', 'cm'), 30); // 0.3 / 0.01 is 29.999999999999996 in doubles
    assert.equal(await one(1.1, 'length', 'ft', 'in'), 13.2); // 1.1 × 12 is 13.200000000000001 in doubles
  });

  it('rounds every result, even to the same unit, to 12 significant digits', async () => {
    assert.equal(await one(1.23456789012345, 'length', 'km', 'km'), 1.23456789012);
    assert.equal(await one(-1.23456789012345, 'length', 'km', 'km'), -1.23456789012);
  });

  it('echoes the input with the canonical id and symbol, unrounded', async () => {
    const { input } = await run({ value: 1.23456789012345, category: 'time', from: 'US', to: 's' });
    assert.deepEqual(input, { unit: 'us', symbol: 'µs', value: 1.23456789012345 });
  });

  it('matches ids case-insensitively, ASCII only', async () => {
    assert.equal(await one(1, 'length', 'KM', 'M'), 1000);
    assert.equal(await one(1, 'data', 'KiB', 'B'), 1024);
    // U+212A KELVIN SIGN lowercases to "k" with toLowerCase(); it is not an id.
    await rejectsWith(run({ value: 1, category: 'temperature', from: '\u212A' }), 400, 'validation_failed', ['/from']);
  });

  it('lists every unit of the category in table order, the source included, when `to` is omitted', async () => {
    for (const category of CATEGORY_NAMES) {
      const from = UNITS[category][0]!.id;
      const { results } = await run({ value: 1, category, from });
      assert.deepEqual(results.map((entry) => entry.unit), UNITS[category].map((unit) => unit.id));
      assert.equal(results[0]!.value, 1);
    }
  });

  it('answers a unit of another category, or an unknown id, with 400 naming /from or /to', async () => {
    await rejectsWith(run({ value: 1, category: 'length', from: 'kg' }), 400, 'validation_failed', ['/from']);
    await rejectsWith(run({ value: 1, category: 'length', from: 'm', to: 'c' }), 400, 'validation_failed', ['/to']);
    await rejectsWith(run({ value: 1, category: 'mass', from: 'x', to: 'y' }), 400, 'validation_failed', ['/from', '/to']);
    await rejectsWith(run({ value: 1, category: 'length', from: ' km' }), 400, 'validation_failed', ['/from']);
    await rejectsWith(run({ value: 1, category: 'length', from: '' }), 400, 'validation_failed', ['/from']);
  });

  it('validates the body: required fields, types, the category enum, unknown properties', async () => {
    await rejectsWith(run({ category: 'length', from: 'm' }), 400, 'validation_failed', ['/value']);
    await rejectsWith(run({ value: 1, from: 'm' }), 400, 'validation_failed', ['/category']);
    await rejectsWith(run({ value: 1, category: 'length' }), 400, 'validation_failed', ['/from']);
    await rejectsWith(run({ value: '5', category: 'length', from: 'm' }), 400, 'validation_failed', ['/value']);
    await rejectsWith(run({ value: 1, category: 'weight', from: 'kg' }), 400, 'validation_failed', ['/category']);
    await rejectsWith(run({ value: 1, category: 'length', from: 'm', to: 5 }), 400, 'validation_failed', ['/to']);
    await rejectsWith(run({ value: 1, category: 'length', from: 'm', extra: 1 }), 400, 'validation_failed', ['/extra']);
  });
});

describe('unit-converter.convert: hostile input', () => {
  it('answers a result beyond the double range with 422 result_not_finite, never null', async () => {
    await rejectsWith(run({ value: 1e308, category: 'length', from: 'm', to: 'nm' }), 422, 'result_not_finite');
    await rejectsWith(run({ value: -1e308, category: 'length', from: 'km' }), 422, 'result_not_finite');
    assert.equal(await one(Number.MAX_VALUE, 'length', 'm', 'm'), 1.79769313486e308);
    assert.equal(await one(1e308, 'length', 'nm', 'm'), 1e299);
  });

  it('underflows a result below the smallest double to 0', async () => {
    assert.equal(await one(5e-324, 'length', 'nm', 'km'), 0);
    assert.equal(await one(5e-324, 'length', 'km', 'nm'), 5e-312);
  });

  it('refuses a 10 MB unit id quickly with 400, without quoting it', async () => {
    const huge = 'k'.repeat(10_000_000);
    const started = performance.now();
    await assert.rejects(run({ value: 1, category: 'length', from: huge }), (error: { status: number; message: string; details: { message: string }[] }) => {
      assert.equal(error.status, 400);
      assert.ok(error.message.length < 200 && error.details[0]!.message.length < 200);
      return true;
    });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('refuses lone surrogates and other Unicode as ids', async () => {
    await rejectsWith(run({ value: 1, category: 'length', from: '\uD800' }), 400, 'validation_failed', ['/from']);
    await rejectsWith(run({ value: 1, category: 'length', from: 'µm' }), 400, 'validation_failed', ['/from']);
    await rejectsWith(run({ value: 1, category: 'length', from: 'm\u0000' }), 400, 'validation_failed', ['/from']);
  });

  it('treats -0 as 0', async () => {
    assert.equal(await one(-0, 'length', 'm', 'cm'), 0);
  });
});
