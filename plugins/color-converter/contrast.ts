/**
 * WCAG 2.x contrast. culori's wcagContrast ignores alpha, but a translucent text colour is seen
 * mixed with what lies behind it, so colours are composited (in sRGB, as browsers blend) first.
 */
import { roundDecimal } from '@toolshed/plugin-sdk';
import { parseColor, type SrgbColor } from './color.js';

export interface WcagResult {
  aaNormal: boolean;
  aaLarge: boolean;
  aaaNormal: boolean;
  aaaLarge: boolean;
  ui: boolean;
}

export interface ContrastReport {
  ratio: number;
  wcag: WcagResult;
}

type Opaque = Pick<SrgbColor, 'r' | 'g' | 'b'>;

const WHITE: Opaque = { r: 1, g: 1, b: 1 };

/**
 * `top` seen over the opaque `bottom` (source-over). parseColor has already reduced the channels to
 * 8 bits, so the ratio is the one of the hex /convert reports for the same colour.
 */
export function over(top: SrgbColor, bottom: Opaque): Opaque {
  const mix = (channel: number, under: number): number => channel * top.alpha + under * (1 - top.alpha);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b) };
}

/**
 * WCAG 2.x relative luminance with the sRGB threshold 0.04045 (WCAG 2.0 printed 0.03928; no 8-bit
 * value lies between the two, so they agree on every opaque colour).
 */
export function relativeLuminance(color: Opaque): number {
  const linear = (channel: number): number => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b);
}

/** (L1 + 0.05) / (L2 + 0.05), lighter over darker: 1 to 21. */
export function contrastRatio(first: Opaque, second: Opaque): number {
  const [light, dark] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Rounded down to 2 decimals, as WebAIM shows it (#777777 on white is 4.478…, shown 4.47): a
 * ratio that fails 4.5 is never displayed as 4.5. The thresholds use the unrounded ratio.
 */
export function displayedRatio(ratio: number): number {
  // 1.13 * 100 is 112.99999999999999 in floats: cut the noise before flooring.
  return Math.floor(roundDecimal(ratio * 100, 6)) / 100;
}

export function contrast(foregroundInput: string, backgroundInput: string): ContrastReport {
  const background = over(parseColor(backgroundInput), WHITE);
  const foreground = over(parseColor(foregroundInput), background);
  // Float noise off (1.05 / 0.05 is not exactly 21), so a ratio and its display agree at a threshold.
  const ratio = roundDecimal(contrastRatio(foreground, background), 9);
  return {
    ratio: displayedRatio(ratio),
    wcag: {
      aaNormal: ratio >= 4.5,
      aaLarge: ratio >= 3,
      aaaNormal: ratio >= 7,
      aaaLarge: ratio >= 4.5,
      ui: ratio >= 3,
    },
  };
}
