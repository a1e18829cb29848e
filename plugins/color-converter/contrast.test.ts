import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import colorConverter from './index.js';
import { relativeLuminance, type ContrastReport } from './contrast.js';

const contrast = async (foreground: string, background: string): Promise<ContrastReport> =>
  (await invoke(colorConverter, 'contrast', { foreground, background })) as ContrastReport;

describe('color-converter.contrast', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of colorConverter.operations.contrast!.examples) {
      assert.deepEqual(await invoke(colorConverter, 'contrast', example.body), example.response);
    }
  });

  it('matches the ratios WebAIM publishes', async () => {
    const pairs: [string, string, number, boolean][] = [
      ['#777777', '#ffffff', 4.47, false], // the classic "just fails AA" grey
      ['#767676', '#ffffff', 4.54, true], // the lightest grey that passes AA on white
      ['#000000', '#ffffff', 21, true],
      ['#0000ff', '#ffffff', 8.59, true],
    ];
    for (const [foreground, background, ratio, aa] of pairs) {
      const report = await contrast(foreground, background);
      assert.equal(report.ratio, ratio, foreground);
      assert.equal(report.wcag.aaNormal, aa, foreground);
      // Contrast is symmetric.
      assert.deepEqual(await contrast(background, foreground), report);
    }
  });

  it('rounds the ratio down, so a failing ratio never shows as the threshold', async () => {
    // #959595: 149/255 = 0.5843 → ((0.5843 + 0.055)/1.055)^2.4 = 0.30054; 1.05 / 0.35054 = 2.9953.
    // Rounded half-up that would show 3.00 while failing the 3:1 rules.
    const below3 = await contrast('#959595', 'white');
    assert.equal(below3.ratio, 2.99);
    assert.deepEqual(below3.wcag, { aaNormal: false, aaLarge: false, aaaNormal: false, aaaLarge: false, ui: false });
    // #595959: 89/255 = 0.3490 → 0.09990; 1.05 / 0.14990 = 7.0047 passes AAA.
    assert.deepEqual(await contrast('#595959', 'white'), {
      ratio: 7,
      wcag: { aaNormal: true, aaLarge: true, aaaNormal: true, aaaLarge: true, ui: true },
    });
    // #5a5a5a: 90/255 = 0.3529 → 0.10227; 1.05 / 0.15227 = 6.8957 fails it.
    assert.equal((await contrast('#5a5a5a', 'white')).wcag.aaaNormal, false);
  });

  it('composites a translucent foreground over the background, and a translucent background over white', async () => {
    // Black at 50 % on white shows as 0.5 grey: ((0.5 + 0.055)/1.055)^2.4 = 0.21404; 1.05 / 0.26404 = 3.977.
    assert.equal((await contrast('rgb(0 0 0 / 0.5)', 'white')).ratio, 3.97);
    // A fully transparent background is white.
    assert.equal((await contrast('black', 'rgb(0 0 0 / 0)')).ratio, 21);
    // Blue at 50 % over white is (0.5, 0.5, 1): L = 0.9278 × 0.21404 + 0.0722 = 0.27079; black on it: 0.32079 / 0.05 = 6.4157.
    assert.equal((await contrast('#000', 'rgb(0 0 255 / 0.5)')).ratio, 6.41);
    assert.equal((await contrast('white', 'white')).ratio, 1);
  });

  it('agrees with the WCAG 2.0 threshold 0.03928 on every 8-bit value', () => {
    const wcag20 = (c: number): number => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    for (let value = 0; value <= 255; value++) {
      const c = value / 255;
      assert.equal(relativeLuminance({ r: c, g: c, b: c }), 0.2126 * wcag20(c) + 0.7152 * wcag20(c) + 0.0722 * wcag20(c));
    }
  });

  it('answers 422 invalid_color for an unreadable colour and 400 for a missing one', async () => {
    await rejectsWith(contrast('white', 'dark grey'), 422, 'invalid_color');
    await rejectsWith(contrast('#ggg', 'white'), 422, 'invalid_color');
    await rejectsField(invoke(colorConverter, 'contrast', { foreground: 'red' }), '/background');
  });
});
