/**
 * The dark and light colours: any CSS colour, read by culori and handed to qrcode as hex.
 */
import { clampRgb, converter, formatHex, formatHex8, parse, toGamut } from 'culori';
import { InputError } from '@toolshed/plugin-sdk';

const toRgb = converter('rgb');
const mapToSrgb = toGamut('rgb', 'oklch');
const SRGB_MODES: ReadonlySet<string> = new Set(['rgb', 'hsl', 'hwb']);

/**
 * `#rrggbb`, or `#rrggbbaa` when the colour is translucent (qrcode writes it as fill-opacity, so a
 * `transparent` light colour leaves the background out). sRGB notations are clamped per channel,
 * wider colours gamut-mapped (CSS Color 4), as color-converter does. Undefined when unreadable.
 */
export function toQrHex(text: string): string | undefined {
  const parsed = parse(text.trim().toLowerCase());
  if (parsed === undefined) return undefined;
  const rgb = SRGB_MODES.has(parsed.mode) ? clampRgb(toRgb(parsed)) : mapToSrgb(parsed);
  if (![rgb.r, rgb.g, rgb.b].every((channel) => Number.isFinite(channel))) return undefined;
  const alpha = parsed.alpha ?? 1;
  return Math.round(alpha * 255) < 255 ? formatHex8({ ...rgb, alpha }) : formatHex({ ...rgb, alpha: 1 });
}

/** Both colours as hex; 400 with a detail on `/dark` and/or `/light` for one culori cannot read. */
export function qrColors(dark: string, light: string): { dark: string; light: string } {
  const darkHex = toQrHex(dark);
  const lightHex = toQrHex(light);
  const details = [];
  if (darkHex === undefined) details.push({ path: '/dark', message: 'is not a CSS colour' });
  if (lightHex === undefined) details.push({ path: '/light', message: 'is not a CSS colour' });
  if (darkHex === undefined || lightHex === undefined) throw new InputError('The QR colours must be CSS colours', details);
  return { dark: darkHex, light: lightHex };
}
