/**
 * The EXIF part of /read: exifr decodes the values of the tags we show, picked one by one, from a
 * TIFF block whose structure tiff.ts has already walked. Only tags whose stored values are small
 * are picked and IFD1 is cut off first, so a hostile block cannot make exifr build megabyte arrays.
 */
import exifr from 'exifr';
import {
  GPS_ALTITUDE,
  GPS_ALTITUDE_REF,
  GPS_LATITUDE,
  GPS_LATITUDE_REF,
  GPS_LONGITUDE,
  GPS_LONGITUDE_REF,
  TAGS,
  type IfdName,
  type TagDefinition,
  type TagFormat,
  type TagGroup,
} from './tags.data.js';
import { hasExifMetadata, POINTER_TAGS, scanTiff, type IfdEntry, type TiffSummary } from './tiff.js';

export interface ImageTag {
  key: string;
  group: TagGroup;
  value: string;
}

export interface GpsPoint {
  lat: number;
  lon: number;
}

export interface ExifReading {
  tags: ImageTag[];
  otherTags: number;
  gps: GpsPoint | null;
  hasMetadata: boolean;
  thumbnail: boolean;
}

/**
 * exifr 7.1.3 keeps every Options it builds in a module-level Map keyed by the options object it was
 * given (`Options.useCached`) and never evicts one. The picks below differ from image to image, so
 * each read left its options behind: a few KiB per request, found as the live heap growing through
 * a 300,000-request soak. Built fresh each time, nothing is kept; the cache only ever saved
 * rebuilding a small object.
 */
const exifrOptions = (exifr as unknown as { Options: { useCached(options: unknown): unknown; new (options: unknown): unknown } }).Options;
exifrOptions.useCached = (options: unknown) => new exifrOptions(options);

/** The options exifr builds for `options`: a new object every time (see above). */
export const exifrOptionsFor = (options: unknown): unknown => exifrOptions.useCached(options);

/** Largest stored value (bytes) handed to exifr; the shown tags need a few dozen. */
const MAX_VALUE_BYTES = 1024;
/** Longest value string in the answer. */
export const MAX_VALUE_CHARS = 256;

type Block = Record<string, unknown> | undefined;
type ExifrOutput = Partial<Record<IfdName, Block>>;

/** Cuts a string to `max` characters, marking the cut with "…". */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function plain(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\0+$/, '').trim();
  if (typeof value === 'number') return String(round(value, 6));
  if (value instanceof Uint8Array) {
    const ascii = Buffer.from(value).toString('latin1').replace(/\0+$/, '');
    return /^[\x20-\x7e]*$/.test(ascii) ? ascii.trim() : `(${value.length} bytes)`;
  }
  if (Array.isArray(value)) return value.map(plain).join(', ');
  return String(value);
}

/** exiftool's notation for the units of the shown numeric tags. */
function formatValue(value: unknown, format: TagFormat): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (format === 'exposure' && value > 0 && value <= 0.25) return `1/${Math.round(1 / value)}`;
    if (format === 'fnumber') return value.toFixed(1);
    if (format === 'focal') return `${value.toFixed(1)} mm`;
    if (format === 'focal35') return `${value} mm`;
    if (format === 'colorSpace' && value === 0xffff) return 'Uncalibrated';
  }
  return plain(value);
}

function degrees(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (!Array.isArray(value) || value.length !== 3 || !value.every((part) => typeof part === 'number')) return undefined;
  const [d, m, s] = value as [number, number, number];
  return d + m / 60 + s / 3600;
}

function refIs(value: unknown, negative: string): boolean {
  return typeof value === 'string' && value.trim().toUpperCase() === negative;
}

function gpsPoint(gps: Block): GpsPoint | null {
  const lat = degrees(gps?.[GPS_LATITUDE]);
  const lon = degrees(gps?.[GPS_LONGITUDE]);
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  // Six decimals are about 0.1 m and hide the float noise of d + m/60 + s/3600.
  return {
    lat: round(refIs(gps?.[GPS_LATITUDE_REF], 'S') ? -lat : lat, 6),
    lon: round(refIs(gps?.[GPS_LONGITUDE_REF], 'W') ? -lon : lon, 6),
  };
}

function altitude(gps: Block): string | undefined {
  const value = gps?.[GPS_ALTITUDE];
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const ref = gps?.[GPS_ALTITUDE_REF];
  const below = (ref instanceof Uint8Array && ref[0] === 1) || ref === 1;
  return `${round(below ? -value : value, 2)} m`;
}

/** The IFD0 → IFD1 link zeroed in a copy: exifr parses IFD1 whole whatever its options say. */
function withoutIfd1(tiff: Uint8Array): Uint8Array {
  const copy = new Uint8Array(tiff);
  const view = new DataView(copy.buffer);
  const little = copy[0] === 0x49;
  const ifd0 = view.getUint32(4, little);
  if (ifd0 + 2 > copy.length) return copy;
  const next = ifd0 + 2 + view.getUint16(ifd0, little) * 12;
  if (next + 4 <= copy.length) view.setUint32(next, 0, little);
  return copy;
}

async function decode(tiff: Uint8Array, picks: Record<IfdName, number[]>): Promise<ExifrOutput> {
  try {
    const output: unknown = await exifr.parse(withoutIfd1(tiff), {
      tiff: true,
      ifd0: { pick: picks.ifd0 },
      exif: picks.exif.length > 0 ? { pick: picks.exif } : false,
      gps: picks.gps.length > 0 ? { pick: picks.gps } : false,
      ifd1: false,
      interop: false,
      makerNote: false,
      userComment: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      translateKeys: false,
      translateValues: true,
      // Dates stay the file's strings: no Date objects in the server's time zone.
      reviveValues: false,
      sanitize: true,
      mergeOutput: false,
    });
    return typeof output === 'object' && output !== null ? (output as ExifrOutput) : {};
  } catch {
    // A block exifr cannot read shows no values; its entries are still counted in otherTags.
    return {};
  }
}

function absentTag(entries: readonly IfdEntry[]): number {
  const present = new Set(entries.map((entry) => entry.tag));
  let tag = 0xffff;
  while (present.has(tag)) tag--; // an IFD holds at most 65,535 entries, so some id in 0…65535 is free
  return tag;
}

const small = (entries: readonly IfdEntry[], tag: number) =>
  entries.some((entry) => entry.tag === tag && entry.byteSize <= MAX_VALUE_BYTES);

/** Reads one EXIF (TIFF) block; undefined when it is not TIFF at all. */
export async function readExif(tiff: Uint8Array): Promise<ExifReading | undefined> {
  const summary = scanTiff(tiff);
  if (summary === undefined) return undefined;
  const picks: Record<IfdName, number[]> = { ifd0: [], exif: [], gps: [] };
  for (const { ifd, tag } of TAGS) if (small(summary[ifd], tag)) picks[ifd].push(tag);
  for (const tag of [GPS_LATITUDE_REF, GPS_LATITUDE, GPS_LONGITUDE_REF, GPS_LONGITUDE, GPS_ALTITUDE_REF, GPS_ALTITUDE]) {
    if (small(summary.gps, tag)) picks.gps.push(tag);
  }
  const wanted = picks.ifd0.length + picks.exif.length + picks.gps.length > 0;
  // exifr must walk IFD0 to reach the sub-IFDs, and an empty pick list means "all tags": pick one
  // that is absent instead.
  if (picks.ifd0.length === 0) picks.ifd0.push(absentTag(summary.ifd0));
  const output = wanted ? await decode(tiff, picks) : {};
  return present(summary, output);
}

function present(summary: TiffSummary, output: ExifrOutput): ExifReading {
  const shown: { definition: Pick<TagDefinition, 'key' | 'group'>; value: string }[] = [];
  const consumed: Record<IfdName, Set<number>> = { ifd0: new Set(), exif: new Set(), gps: new Set() };
  for (const definition of TAGS) {
    const value = output[definition.ifd]?.[definition.tag];
    if (value === undefined || value === null) continue;
    shown.push({ definition, value: clip(formatValue(value, definition.format), MAX_VALUE_CHARS) });
    consumed[definition.ifd].add(definition.tag);
  }
  const gps = gpsPoint(output.gps);
  if (gps !== null) {
    shown.push({ definition: { key: 'GPSPosition', group: 'location' }, value: `${gps.lat}, ${gps.lon}` });
    for (const tag of [GPS_LATITUDE_REF, GPS_LATITUDE, GPS_LONGITUDE_REF, GPS_LONGITUDE]) consumed.gps.add(tag);
  }
  const height = altitude(output.gps);
  if (height !== undefined) {
    shown.push({ definition: { key: 'GPSAltitude', group: 'location' }, value: height });
    consumed.gps.add(GPS_ALTITUDE_REF).add(GPS_ALTITUDE);
  }
  let otherTags = 0;
  for (const ifd of ['ifd0', 'exif', 'gps'] as const) {
    otherTags += summary[ifd].filter((entry) => !POINTER_TAGS.has(entry.tag) && !consumed[ifd].has(entry.tag)).length;
  }
  return {
    tags: shown.map(({ definition, value }) => ({ key: definition.key, group: definition.group, value })),
    otherTags,
    gps,
    hasMetadata: hasExifMetadata(summary),
    thumbnail: summary.thumbnail,
  };
}
