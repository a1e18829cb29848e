/**
 * Parsing any CSS colour with culori, bringing it into sRGB, and writing it in the formats of
 * /convert. Every format is derived from one colour: the gamut-mapped sRGB colour reduced to 8 bits
 * per channel (what the hex says); alpha stays unquantized and is rounded to 2 decimals.
 */
import { clampRgb, converter, interpolate, parse, toGamut, type Color, type Rgb } from 'culori';
import { roundDecimal, UnprocessableError } from '@toolshed/plugin-sdk';

/** An sRGB colour with every channel finite and within 0–1. */
export type SrgbColor = Required<Pick<Rgb, 'r' | 'g' | 'b' | 'alpha'>>;

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface Conversion {
  hex: string;
  rgb: string;
  hsl: string;
  hsv: string;
  oklch: string;
  cmyk: string;
  rgba: Rgba;
  scale?: string[];
}

const toRgb = converter('rgb');
const toHsl = converter('hsl');
const toHsv = converter('hsv');
const toOklch = converter('oklch');
// CSS Color 4 gamut mapping: lowers chroma at constant OKLCh lightness and hue until the colour is
// within a just-noticeable difference of sRGB. Per-channel clipping would shift the hue instead.
const mapToSrgb = toGamut('rgb', 'oklch');

/** Notations whose channels are sRGB already: CSS clamps them, so do we (rgb(300 0 0) is red). */
const SRGB_MODES: ReadonlySet<string> = new Set(['rgb', 'hsl', 'hwb']);

const unit = (value: number): number => Math.min(1, Math.max(0, value));
/** A channel 0–1 as an 8-bit integer 0–255. */
export const byte = (channel: number): number => Math.round(channel * 255);

/** Brings a parsed colour of any space into sRGB; undefined when a channel is not finite (1e400). */
export function intoSrgb(color: Color): SrgbColor | undefined {
  const rgb = SRGB_MODES.has(color.mode) ? clampRgb(toRgb(color)) : mapToSrgb(color);
  const channels = [rgb.r, rgb.g, rgb.b];
  if (!channels.every((channel) => Number.isFinite(channel))) return undefined;
  const alpha = color.alpha ?? 1;
  if (!Number.isFinite(alpha)) return undefined;
  // The gamut mapper can leave float noise such as -2e-14 on a channel.
  return { r: unit(rgb.r), g: unit(rgb.g), b: unit(rgb.b), alpha: unit(alpha) };
}

/** The message of `invalid_color`. */
export const INVALID_COLOR = 'The text is not a CSS colour (hex such as #ff8800, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color() or a name)';

/** Parses a CSS colour (trimmed, any case) into sRGB, or throws 422 `invalid_color`. */
export function parseColor(input: string): SrgbColor {
  const text = input.trim().toLowerCase();
  const parsed = text === '' ? undefined : parse(text);
  const srgb = parsed === undefined ? undefined : intoSrgb(parsed);
  // The input is not quoted: error messages never repeat a whole field (docs/errors.md).
  if (srgb === undefined) throw new UnprocessableError('invalid_color', INVALID_COLOR);
  // Every format describes the 8-bit colour the hex names, so oklch → hex → oklch is stable.
  return { r: byte(srgb.r) / 255, g: byte(srgb.g) / 255, b: byte(srgb.b) / 255, alpha: srgb.alpha };
}

const hex2 = (value: number): string => value.toString(16).padStart(2, '0');
const percent = (fraction: number): number => roundDecimal(fraction * 100, 0);
/** Whole degrees in 0–359 (359.6 rounds to 360, which is 0). */
const degrees = (hue: number | undefined, decimals: number): number => {
  const rounded = roundDecimal(hue ?? 0, decimals);
  return rounded >= 360 ? roundDecimal(rounded - 360, decimals) : rounded;
};

/** Alpha rounded to 2 decimals: the colour counts as translucent when that is below 1. */
export const alphaOf = (color: SrgbColor): number => roundDecimal(color.alpha, 2);
const alphaSuffix = (alpha: number): string => (alpha < 1 ? ` / ${alpha}` : '');

/** `#rrggbb`, or `#rrggbbaa` when translucent. */
export function formatHex(color: SrgbColor): string {
  const hex = `#${hex2(byte(color.r))}${hex2(byte(color.g))}${hex2(byte(color.b))}`;
  return alphaOf(color) < 1 ? `${hex}${hex2(byte(color.alpha))}` : hex;
}

function formatHsl(color: SrgbColor): string {
  const hsl = toHsl({ mode: 'rgb', r: color.r, g: color.g, b: color.b });
  const s = percent(hsl.s);
  // A grey has no hue; say 0 rather than whatever float noise leaves behind.
  return `hsl(${s === 0 ? 0 : degrees(hsl.h, 0)} ${s}% ${percent(hsl.l)}%${alphaSuffix(alphaOf(color))})`;
}

function formatHsv(color: SrgbColor): string {
  const hsv = toHsv({ mode: 'rgb', r: color.r, g: color.g, b: color.b });
  const s = percent(hsv.s);
  return `hsv(${s === 0 ? 0 : degrees(hsv.h, 0)} ${s}% ${percent(hsv.v)}%${alphaSuffix(alphaOf(color))})`;
}

function formatOklch(color: SrgbColor): string {
  const oklch = toOklch({ mode: 'rgb', r: color.r, g: color.g, b: color.b });
  const chroma = roundDecimal(oklch.c, 4);
  const hue = chroma === 0 ? 0 : degrees(oklch.h, 2);
  return `oklch(${roundDecimal(oklch.l * 100, 1)}% ${chroma} ${hue}${alphaSuffix(alphaOf(color))})`;
}

/** The naive device-independent formula: K = 1 − max(R, G, B), C = (1 − R − K) / (1 − K), … */
function formatCmyk(color: SrgbColor): string {
  const k = 1 - Math.max(color.r, color.g, color.b);
  const ink = (channel: number): number => (k === 1 ? 0 : percent((1 - channel - k) / (1 - k)));
  return `cmyk(${ink(color.r)}% ${ink(color.g)}% ${ink(color.b)}% ${percent(k)}%${alphaSuffix(alphaOf(color))})`;
}

/** Steps in the scale (tints and shades, light to dark). */
export const SCALE_STEPS = 12;

/**
 * Tints and shades: the OKLab ramp white → colour → black (the colour at its middle), sampled at
 * i/13 for i = 1…12, so pure white and pure black (the same for every colour) are left out. The
 * colour is used opaque; a sample outside sRGB is gamut-mapped like any input.
 */
export function scaleOf(color: SrgbColor): string[] {
  const ramp = interpolate(['#ffffff', { mode: 'rgb', r: color.r, g: color.g, b: color.b }, '#000000'], 'oklab');
  const steps: string[] = [];
  for (let step = 1; step <= SCALE_STEPS; step++) {
    const sample = intoSrgb(ramp(step / (SCALE_STEPS + 1)));
    // Every sample lies between white, an sRGB colour and black in OKLab: always finite.
    if (sample !== undefined) steps.push(formatHex({ ...sample, alpha: 1 }));
  }
  return steps;
}

/** /convert: every format of one colour, and its scale when asked for. */
export function convert(input: string, withScale: boolean): Conversion {
  const color = parseColor(input);
  const conversion: Conversion = {
    hex: formatHex(color),
    rgb: `rgb(${byte(color.r)} ${byte(color.g)} ${byte(color.b)}${alphaSuffix(alphaOf(color))})`,
    hsl: formatHsl(color),
    hsv: formatHsv(color),
    oklch: formatOklch(color),
    cmyk: formatCmyk(color),
    rgba: { r: byte(color.r), g: byte(color.g), b: byte(color.b), a: alphaOf(color) },
  };
  if (withScale) conversion.scale = scaleOf(color);
  return conversion;
}
