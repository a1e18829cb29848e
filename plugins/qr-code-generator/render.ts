/**
 * Drawing the QR code as SVG with qrcode. A pure module: the manifest runs it inline for short
 * payloads and in the SDK's worker pool for long ones.
 */
import QRCode from 'qrcode';
import { UnprocessableError } from '@toolshed/plugin-sdk';

export type ErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface RenderOptions {
  errorCorrection: ErrorCorrection;
  margin: number;
  /** `#rrggbb` or `#rrggbbaa`: qrcode misreads anything else (`red` becomes `#rreedd`). */
  dark: string;
  light: string;
}

/**
 * The most characters any QR code holds: 7089 digits (version 40-L, numeric mode). A longer text
 * cannot fit whatever it contains, so it is refused before qrcode searches for segments.
 */
export const MAX_QR_CHARACTERS = 7089;

export const tooLong = (level: ErrorCorrection): UnprocessableError =>
  new UnprocessableError('data_too_long', `The payload does not fit in a QR code (version 40) at error correction ${level}`);

/**
 * Refuses at once when one field is longer than any QR code holds: every field appears in the
 * payload at least at its own length (escaping and percent-encoding only grow it), so building a
 * payload from megabytes would be wasted work.
 */
export function assertFieldsMayFit(fields: readonly string[], level: ErrorCorrection): void {
  if (fields.some((field) => field.length > MAX_QR_CHARACTERS)) throw tooLong(level);
}

export async function renderSvg(payload: string, options: RenderOptions): Promise<string> {
  if (payload.length > MAX_QR_CHARACTERS) throw tooLong(options.errorCorrection);
  try {
    return await QRCode.toString(payload, {
      type: 'svg',
      errorCorrectionLevel: options.errorCorrection,
      margin: options.margin,
      color: { dark: options.dark, light: options.light },
    });
  } catch (error) {
    // qrcode says so in words only: "The amount of data is too big to be stored in a QR Code".
    if (error instanceof Error && /amount of data is too big/i.test(error.message)) throw tooLong(options.errorCorrection);
    throw error;
  }
}
