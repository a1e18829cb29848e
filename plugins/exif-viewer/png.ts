/**
 * A PNG chunk walker. Every chunk's CRC is checked; the chunks that define the pixels (IHDR, PLTE,
 * IDAT, IEND, colour and transparency chunks, APNG frames, unknown critical chunks) are kept byte
 * for byte, the rest is metadata. Compressed chunks are inflated here with a cap (png-text.ts),
 * never by exifr.
 */
import { invalidImage, KeptRanges, MAX_ENTRIES, noteBlock, type ImageFile, type TextEntry } from './image-file.js';
import { readTextChunk, XMP_KEYWORD } from './png-text.js';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Ancillary chunks that change how the pixels look or animate. */
const RENDERING_CHUNKS: ReadonlySet<string> = new Set([
  'tRNS', 'gAMA', 'cHRM', 'sRGB', 'sBIT', 'bKGD', 'hIST', 'pHYs', 'sPLT', 'cICP', 'mDCv', 'cLLi', 'acTL', 'fcTL', 'fdAT',
]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as PNG uses it (ISO 3309), over the chunk type and data. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A complete chunk (length, type, data, CRC) around `data`. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** Walks a PNG file (it starts with the signature); throws invalid_image when it is malformed. */
export function parsePng(input: Uint8Array): ImageFile {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const kept = new KeptRanges(); // every kept chunk after IHDR
  const other = new Set<string>();
  const texts: TextEntry[] = [];
  let exif: Uint8Array | undefined;
  let xmp = false;
  let size: { width: number; height: number } | undefined;
  let sawImageData = false;
  let pos = PNG_SIGNATURE.length;
  for (;;) {
    if (pos + 12 > bytes.length) throw invalidImage('The PNG file ends before its IEND chunk');
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw invalidImage(`The PNG chunk at byte ${pos} runs past the end of the file`);
    if (!/^[A-Za-z]{4}$/.test(type)) throw invalidImage(`The PNG chunk at byte ${pos} has an invalid type`);
    if (crc32(bytes.subarray(pos + 4, end - 4)) !== bytes.readUInt32BE(end - 4)) throw invalidImage(`The PNG chunk ${type} has a wrong CRC`);
    const data = bytes.subarray(pos + 8, end - 4);
    if (size === undefined) {
      if (type !== 'IHDR' || length !== 13) throw invalidImage('The PNG file does not start with an IHDR chunk');
      size = { width: data.readUInt32BE(0), height: data.readUInt32BE(4) };
    }
    const start = pos;
    pos = end;
    if (type === 'IEND') break;
    if (start === PNG_SIGNATURE.length) continue; // IHDR, written back first
    if (type === 'IDAT') sawImageData = true;
    const critical = type.charCodeAt(0) < 0x61; // upper-case first letter
    if (critical || RENDERING_CHUNKS.has(type)) {
      kept.add(start, end);
    } else if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      // Past the cap a text is not even inflated; the XMP packet is told by its keyword alone.
      if (type === 'iTXt' && data.toString('latin1', 0, XMP_KEYWORD.length) === XMP_KEYWORD) xmp = true;
      else if (texts.length < MAX_ENTRIES) {
        const entry = readTextChunk(type, data);
        if (entry === undefined) noteBlock(other, type); // no keyword: not a readable text
        else texts.push(entry);
      }
    } else if (type === 'eXIf' && exif === undefined) {
      exif = data;
    } else {
      noteBlock(other, type === 'iCCP' ? 'ICC profile' : type === 'eXIf' ? 'EXIF' : type);
    }
  }
  if (!sawImageData) throw invalidImage('The PNG file has no IDAT chunk');
  if (pos < bytes.length) noteBlock(other, 'trailing data');
  const image = size;
  return {
    format: 'png',
    ...image,
    exif,
    xmp,
    iptc: false,
    thumbnail: false,
    comments: [],
    texts,
    other: [...other],
    rebuild(orientation) {
      // eXIf must precede IDAT; right after IHDR it does.
      const head = Buffer.concat([bytes.subarray(0, PNG_SIGNATURE.length + 25), orientation === undefined ? Buffer.alloc(0) : pngChunk('eXIf', orientation)]);
      const end = pngChunk('IEND', new Uint8Array(0));
      const file = Buffer.alloc(head.length + kept.byteLength + end.length);
      head.copy(file);
      end.copy(file, kept.copy(bytes, file, head.length));
      return file;
    },
  };
}
