/**
 * /read and /strip over the container walkers. Pure functions of the bytes; `processImage` is also
 * the entry the SDK's worker pool runs for large uploads, so this module has no manifest side effects.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { decodeBase64 } from './base64.js';
import { invalidImage, type ImageFile, type ImageFormat, type TextEntry } from './image-file.js';
import { parseJpeg } from './jpeg.js';
import { parsePng, PNG_SIGNATURE } from './png.js';
import { GROUP_ORDER } from './tags.data.js';
import { readExif, type GpsPoint, type ImageTag } from './tags.js';
import { orientationTiff, scanTiff } from './tiff.js';
import { parseWebp } from './webp.js';

export interface ReadAnswer {
  format: ImageFormat;
  hasMetadata: boolean;
  gps: GpsPoint | null;
  tags: ImageTag[];
  otherTags: number;
  thumbnail: boolean;
  xmp: boolean;
  iptc: boolean;
  comments: string[];
  texts: TextEntry[];
  other: string[];
}

export interface StripAnswer {
  dataBase64: string;
  format: ImageFormat;
  bytesBefore: number;
  bytesAfter: number;
}

const startsWith = (bytes: Uint8Array, prefix: Uint8Array | string, at = 0) => {
  const expected = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : prefix;
  return bytes.length >= at + expected.length && Buffer.compare(bytes.subarray(at, at + expected.length), expected) === 0;
};

/** Tells the container by its magic bytes and walks it. */
export function parseImage(bytes: Uint8Array): ImageFile {
  if (startsWith(bytes, Buffer.from([0xff, 0xd8]))) return parseJpeg(bytes);
  if (startsWith(bytes, PNG_SIGNATURE.subarray(0, 4))) {
    if (!startsWith(bytes, PNG_SIGNATURE)) throw invalidImage('The PNG signature is damaged');
    return parsePng(bytes);
  }
  if (startsWith(bytes, 'RIFF') && (bytes.length < 12 || startsWith(bytes, 'WEBP', 8))) {
    if (bytes.length < 12) throw invalidImage('The WebP file is cut short');
    return parseWebp(bytes);
  }
  throw new UnprocessableError('unsupported_format', 'The file is not a JPEG, PNG or WebP image');
}

/** The metadata of an image file. */
export async function readImage(bytes: Uint8Array): Promise<ReadAnswer> {
  const file = parseImage(bytes);
  const exif = file.exif === undefined ? undefined : await readExif(file.exif);
  const other = new Set(file.other);
  if (file.exif !== undefined && exif === undefined) other.add('EXIF'); // not a TIFF block: removable, not readable
  const size: ImageTag[] = [
    { key: 'ImageWidth', group: 'image', value: String(file.width) },
    { key: 'ImageHeight', group: 'image', value: String(file.height) },
  ];
  const tags = [...size, ...(exif?.tags ?? [])].sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
  const thumbnail = file.thumbnail || (exif?.thumbnail ?? false);
  const hasMetadata =
    (exif?.hasMetadata ?? false) || thumbnail || file.xmp || file.iptc || file.comments.length + file.texts.length + other.size > 0;
  return {
    format: file.format,
    hasMetadata,
    gps: exif?.gps ?? null,
    tags,
    otherTags: exif?.otherTags ?? 0,
    thumbnail,
    xmp: file.xmp,
    iptc: file.iptc,
    comments: [...file.comments],
    texts: [...file.texts],
    other: [...other],
  };
}

/** The image without metadata; only an orientation other than 1 survives, in a minimal EXIF. */
export function stripImage(bytes: Uint8Array): { data: Buffer; format: ImageFormat } {
  const file = parseImage(bytes);
  const orientation = file.exif === undefined ? 1 : (scanTiff(file.exif)?.orientation ?? 1);
  return { data: file.rebuild(orientation === 1 ? undefined : orientationTiff(orientation)), format: file.format };
}

/** One operation from the Base64 body to the answer: the unit of work, in a worker or not. */
export async function processImage(operation: 'read' | 'strip', dataBase64: string): Promise<ReadAnswer | StripAnswer> {
  const bytes = decodeBase64(dataBase64);
  if (operation === 'read') return readImage(bytes);
  const { data, format } = stripImage(bytes);
  return { dataBase64: data.toString('base64'), format, bytesBefore: bytes.length, bytesAfter: data.length };
}
