import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import colorConverter from './index.js';
import type { Conversion } from './color.js';

const convert = async (color: string, scale = false): Promise<Conversion> =>
  (await invoke(colorConverter, 'convert', { color, scale })) as Conversion;

// Björn Ottosson's reference OKLab (https://bottosson.github.io/posts/oklab/), written out here so
// the scale is checked against something other than culori.
type Triple = [number, number, number];
const toLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number): number => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
function srgbToOklab([r, g, b]: Triple): Triple {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}
function oklabToSrgb([L, a, b]: Triple): Triple {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

describe('color-converter.convert', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of colorConverter.operations.convert!.examples) {
      assert.deepEqual(await invoke(colorConverter, 'convert', example.body), example.response);
    }
  });

  it('gives red the values CSS Color 4 publishes: oklch(62.8% 0.2577 29.23)', async () => {
    const red = await convert('red');
    assert.equal(red.oklch, 'oklch(62.8% 0.2577 29.23)');
    assert.equal(red.hex, '#ff0000');
    assert.equal(red.hsl, 'hsl(0 100% 50%)');
    assert.equal(red.hsv, 'hsv(0 100% 100%)');
    assert.equal(red.cmyk, 'cmyk(0% 100% 100% 0%)');
  });

  it('converts rebeccapurple as CSS Color 4 defines it (#663399, hsl(270 50% 40%))', async () => {
    // hsv by hand: max 153/255 = 60 %, s = (153 − 51) / 153 = 67 %; cmyk: k = 40 %, c = 1 − 0.4/0.6 = 33 %, m = 1 − 0.2/0.6 = 67 %.
    const purple = await convert('rebeccapurple');
    assert.equal(purple.hex, '#663399');
    assert.equal(purple.rgb, 'rgb(102 51 153)');
    assert.equal(purple.hsl, 'hsl(270 50% 40%)');
    assert.equal(purple.hsv, 'hsv(270 67% 60%)');
    assert.equal(purple.cmyk, 'cmyk(33% 67% 0% 40%)');
  });

  it('trims and ignores case, and reads every CSS notation', async () => {
    const red = await convert('red');
    for (const text of ['  RED\t', '#F00', '#FF0000', 'Rgb(255 0 0)', 'rgb(255, 0, 0)', 'hsl(0deg 100% 50%)', 'hwb(0 0% 0%)', 'oklch(62.8% 0.2577 29.23)']) {
      assert.deepEqual(await convert(text), red, text);
    }
  });

  it('clamps sRGB notations per channel as CSS does: rgb(300 -5 0) is red', async () => {
    assert.deepEqual(await convert('rgb(300 -5 0)'), await convert('red'));
  });

  it('gamut-maps wide colours at constant lightness and hue instead of clipping channels', async () => {
    // oklch(70% 0.4 150) is far outside sRGB (its linear red is negative). Clipping the channels
    // would swing the hue; CSS Color 4 mapping lowers chroma, keeping L ≈ 70 % and h ≈ 150°.
    const mapped = await convert('oklch(70% 0.4 150)');
    const [, l, c, h] = /^oklch\(([\d.]+)% ([\d.]+) ([\d.]+)\)$/.exec(mapped.oklch)!.map(Number) as [number, number, number, number];
    assert.ok(Math.abs(l - 70) <= 1 && Math.abs(h - 150) <= 3 && c < 0.4, mapped.oklch);
    // In-gamut oklch is left alone: #3366cc's own oklch comes back as #3366cc.
    assert.equal((await convert('oklch(53.2% 0.1679 262.29)')).hex, '#3366cc');
    assert.match((await convert('color(display-p3 1 0 0)')).hex, /^#ff[0-9a-f]{4}$/);
  });

  it('writes alpha as " / a" and #rrggbbaa when it is below 1 after rounding to 2 decimals', async () => {
    const half = await convert('#ff000080'); // 0x80 = 128; 128/255 = 0.502
    assert.equal(half.hex, '#ff000080');
    assert.equal(half.rgb, 'rgb(255 0 0 / 0.5)');
    assert.deepEqual(half.rgba, { r: 255, g: 0, b: 0, a: 0.5 });
    const almost = await convert('rgb(0 0 0 / 0.999)');
    assert.equal(almost.hex, '#000000');
    assert.equal(almost.rgb, 'rgb(0 0 0)');
    assert.equal((await convert('transparent')).hex, '#00000000');
  });

  it('gives greys hue 0 and rounds 359.6° to 0°', async () => {
    // #777777: 119/255 = 0.4667 → 47 %. OKLab L of a grey is the cube root of its linear value:
    // ((0.4667 + 0.055) / 1.055)^2.4 = 0.18447, cbrt = 0.5693 → 56.9 %.
    const grey = await convert('#777777');
    assert.equal(grey.hsl, 'hsl(0 0% 47%)');
    assert.equal(grey.hsv, 'hsv(0 0% 47%)');
    assert.equal(grey.oklch, 'oklch(56.9% 0 0)');
    assert.equal(grey.cmyk, 'cmyk(0% 0% 0% 53%)');
    assert.equal((await convert('hsl(359.6 100% 50%)')).hsl, 'hsl(0 100% 50%)');
    assert.equal((await convert('black')).cmyk, 'cmyk(0% 0% 0% 100%)');
  });

  it('scales through the colour in OKLab, matching an independent OKLab ramp', async () => {
    const color: Triple = [51 / 255, 102 / 255, 204 / 255];
    const [white, middle, black] = [srgbToOklab([1, 1, 1]), srgbToOklab(color), srgbToOklab([0, 0, 0])];
    const expected: string[] = [];
    for (let step = 1; step <= 12; step++) {
      // Piecewise linear: white → colour on t ∈ [0, ½], colour → black on [½, 1].
      const t = step / 13;
      const [from, to, u] = t <= 0.5 ? [white, middle, t * 2] : [middle, black, t * 2 - 1];
      const rgb = oklabToSrgb([0, 1, 2].map((i) => from[i]! + (to[i]! - from[i]!) * u) as Triple);
      assert.ok(rgb.every((channel) => channel >= -1e-9 && channel <= 1 + 1e-9), `step ${step} is in sRGB`);
      expected.push(`#${rgb.map((channel) => Math.round(channel * 255).toString(16).padStart(2, '0')).join('')}`);
    }
    const scaled = await convert('#3366cc', true);
    assert.deepEqual(scaled.scale, expected);
    assert.equal('scale' in (await convert('#3366cc')), false);
    // The colour is used opaque: a translucent colour has the same scale, in #rrggbb.
    assert.deepEqual((await convert('#3366cc80', true)).scale, expected);
  });

  it('answers 422 invalid_color for anything culori cannot read, never repeating the text', async () => {
    for (const text of ['nope', '   ', 'currentcolor', '#12', 'rgb(1 2)', 'color(display-p3 1e400 0 0)', 'oklab(0.5 1e200 1e200)']) {
      await rejectsWith(convert(text), 422, 'invalid_color');
    }
    // docs/errors.md: messages never quote whole inputs (a short one would be whole).
    await assert.rejects(convert('nope'), (error: Error) => !error.message.includes('nope'));
  });

  it('answers 400 for an empty or over-long colour', async () => {
    await rejectsField(convert(''), '/color');
    await rejectsField(convert('#'.padEnd(101, 'f')), '/color');
    await rejectsField(invoke(colorConverter, 'convert', { color: 'red', extra: 1 }), '/extra');
  });
});
