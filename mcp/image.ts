/**
 * Answers that are pictures, as MCP `image` content a host can show. Which fields are pictures is
 * the manifest's word, not a tool's name: a top-level answer field whose schema says
 * `contentMediaType: image/…` — SVG text is drawn as PNG (hosts and model APIs take PNG, JPEG, GIF
 * and WebP, not SVG), and PNG, JPEG, GIF or WebP sent as Base64 (`contentEncoding: base64`) is
 * passed on as it is. Drawing runs on the worker pool only (resvg, a native module, is loaded there
 * by the first picture).
 */

/** A field of an answer that holds a picture. */
export interface ImageField {
  /** The answer's top-level field. */
  readonly field: string;
  /** `svg`: SVG markup, drawn as PNG; `base64`: the picture's bytes as Base64, of `mimeType`. */
  readonly form: 'svg' | 'base64';
  readonly mimeType: string;
}

/** The media types a picture is passed on in as it is. */
const SHOWN_AS_IS = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The picture fields of an operation's response schema, from its `contentMediaType`s. */
export function imageFields(responseSchema: unknown): ImageField[] {
  const properties = isNode(responseSchema) && isNode(responseSchema.properties) ? responseSchema.properties : {};
  return Object.entries(properties).flatMap(([field, schema]): ImageField[] => {
    if (!isNode(schema) || schema.type !== 'string' || typeof schema.contentMediaType !== 'string') return [];
    const mimeType = schema.contentMediaType.toLowerCase();
    if (mimeType === 'image/svg+xml' && schema.contentEncoding === undefined) return [{ field, form: 'svg', mimeType: 'image/png' }];
    if (SHOWN_AS_IS.has(mimeType) && schema.contentEncoding === 'base64') return [{ field, form: 'base64', mimeType }];
    return [];
  });
}

/** The PNG's longer side: at least this many pixels (whole pixels per unit, so a QR code's modules stay sharp)… */
const LEAST_SIDE = 512;
/** …and at most this many. */
const MOST_SIDE = 2048;
/** SVG text past this size is not drawn: no picture an operation answers is near it. */
export const MOST_SVG_BYTES = 1024 * 1024;

/**
 * Why an SVG is not drawn, or undefined: resvg reads files an `href` or `url(…)` names (an `<image>`
 * of a local path is drawn into the picture), so a picture that refers to anything but a fragment
 * of itself, or declares entities, is not drawn; a plugin's answer must not reach the host's files.
 */
export function refusedSvg(svg: string): string | undefined {
  if (svg.length > MOST_SVG_BYTES) return `it is over ${MOST_SVG_BYTES} characters`;
  if (/<!(?!--)/.test(svg)) return 'it declares a DOCTYPE or entities';
  const references = [...svg.matchAll(/href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))/gi), ...svg.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))/gi)];
  if (references.some((found) => !(found[1] ?? found[2] ?? found[3] ?? '').trim().startsWith('#'))) return 'it refers to something outside itself';
  return undefined;
}

/** The zoom that makes the longer side at least LEAST_SIDE whole pixels per unit, at most MOST_SIDE. */
export function zoomFor(width: number, height: number): number {
  const longer = Math.max(width, height, 1);
  if (longer >= MOST_SIDE) return MOST_SIDE / longer;
  return Math.max(1, Math.min(Math.ceil(LEAST_SIDE / longer), Math.floor(MOST_SIDE / longer)));
}

/** `svg` drawn as PNG, as Base64 (on a worker of the pool: a native module, and work that grows with the picture). */
export async function pngOfSvg(svg: string): Promise<string> {
  const { Resvg } = await import('@resvg/resvg-js');
  // No system fonts: scanning them costs more than drawing, and a picture that needs text is no code.
  const font = { loadSystemFonts: false };
  const measured = new Resvg(svg, { font });
  const zoom = zoomFor(measured.width, measured.height);
  return Buffer.from(new Resvg(svg, { font, fitTo: { mode: 'zoom', value: zoom } }).render().asPng()).toString('base64');
}
