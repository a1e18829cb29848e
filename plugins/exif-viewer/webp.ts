/**
 * A RIFF walker for WebP: exifr does not read WebP, so this finds the EXIF, XMP and ICCP chunks,
 * hands the EXIF (TIFF) bytes on, and rebuilds the file from the image chunks (VP8X, ANIM, ANMF,
 * ALPH, VP8, VP8L) with the VP8X flags and the RIFF size fixed.
 */
import { invalidImage, KeptRanges, noteBlock, printable, type ImageFile } from './image-file.js';

const IMAGE_CHUNKS: ReadonlySet<string> = new Set(['ALPH', 'ANIM', 'ANMF', 'VP8 ', 'VP8L']);
// VP8X flag bits (WebP container spec) that strip sets or keeps; ICC (0x20) and XMP (0x04) go.
const FLAG_ALPHA = 0x10;
const FLAG_EXIF = 0x08;
const FLAG_ANIMATION = 0x02;

const u24 = (bytes: Buffer, at: number) => bytes.readUIntLE(at, 3);

function chunkHeader(type: string, size: number): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(size, 4);
  return header;
}

/** Width and height from a simple-format bitstream header, or an error for a malformed one. */
function bitstreamSize(type: string, data: Buffer): { width: number; height: number } {
  if (type === 'VP8L') {
    if (data.length < 5 || data[0] !== 0x2f) throw invalidImage('The WebP VP8L header is malformed');
    const bits = data.readUInt32LE(1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (data.length < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) throw invalidImage('The WebP VP8 header is malformed');
  return { width: data.readUInt16LE(6) & 0x3fff, height: data.readUInt16LE(8) & 0x3fff };
}

/** Walks a WebP file (RIFF....WEBP); throws invalid_image when it is malformed or cut short. */
export function parseWebp(input: Uint8Array): ImageFile {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd < 12 || riffEnd > bytes.length) throw invalidImage('The RIFF size of the WebP file runs past its end');
  const kept = new KeptRanges();
  const other = new Set<string>();
  let vp8x: Buffer | undefined;
  let size: { width: number; height: number } | undefined;
  let exif: Uint8Array | undefined;
  let xmp = false;
  let sawImage = false;
  for (let pos = 12; pos < riffEnd; ) {
    if (pos + 8 > riffEnd) throw invalidImage(`The WebP chunk header at byte ${pos} is cut short`);
    const type = bytes.toString('latin1', pos, pos + 4);
    const length = bytes.readUInt32LE(pos + 4);
    const dataEnd = pos + 8 + length;
    if (dataEnd > riffEnd) throw invalidImage(`The WebP chunk at byte ${pos} runs past the end of the file`);
    const data = bytes.subarray(pos + 8, dataEnd);
    if (pos === 12 && type !== 'VP8X' && type !== 'VP8 ' && type !== 'VP8L') throw invalidImage('The WebP file does not start with an image chunk');
    if (type === 'VP8X') {
      if (pos !== 12 || length < 10) throw invalidImage('The WebP VP8X chunk is misplaced or too short');
      vp8x = data;
      size = { width: u24(data, 4) + 1, height: u24(data, 7) + 1 };
    } else if (IMAGE_CHUNKS.has(type)) {
      if (type === 'VP8 ' || type === 'VP8L') {
        const frame = bitstreamSize(type, data);
        size ??= frame;
      }
      sawImage ||= type !== 'ALPH' && type !== 'ANIM';
      kept.add(pos, dataEnd);
      if (length & 1) kept.addZeroByte(); // the pad byte, which must be 0 (and may be missing at the end)
    } else if (type === 'EXIF') {
      if (exif !== undefined) noteBlock(other, 'EXIF');
      // Some writers put JPEG's "Exif\0\0" before the TIFF header.
      else exif = data.toString('latin1', 0, 6) === 'Exif\0\0' ? data.subarray(6) : data;
    } else if (type === 'XMP ') {
      xmp = true;
    } else if (type === 'ICCP') {
      noteBlock(other, 'ICC profile');
    } else {
      noteBlock(other, printable(bytes.subarray(pos, pos + 4)) || 'unknown chunk');
    }
    pos = dataEnd + (length & 1);
  }
  if (!sawImage || size === undefined) throw invalidImage('The WebP file has no image data');
  if (riffEnd < bytes.length) noteBlock(other, 'trailing data');
  const image = size;
  const extended = vp8x;
  return {
    format: 'webp',
    ...image,
    exif,
    xmp,
    iptc: false,
    thumbnail: false,
    comments: [],
    texts: [],
    other: [...other],
    rebuild(orientation) {
      const parts: Uint8Array[] = [];
      // A simple-format file (no VP8X) cannot carry EXIF, so it stays simple and loses the orientation.
      const withExif = orientation !== undefined && extended !== undefined;
      if (extended !== undefined) {
        const header = Buffer.from(extended);
        header[0] = ((extended[0] as number) & (FLAG_ALPHA | FLAG_ANIMATION)) | (withExif ? FLAG_EXIF : 0);
        parts.push(chunkHeader('VP8X', header.length), header);
        if (header.length & 1) parts.push(Buffer.alloc(1));
      }
      const head = Buffer.concat(parts);
      const tail = withExif ? Buffer.concat([chunkHeader('EXIF', orientation.length), orientation]) : Buffer.alloc(0); // 26 bytes: even, no pad
      const file = Buffer.alloc(12 + head.length + kept.byteLength + tail.length);
      chunkHeader('RIFF', file.length - 8).copy(file);
      file.write('WEBP', 8, 'latin1');
      head.copy(file, 12);
      tail.copy(file, kept.copy(bytes, file, 12 + head.length));
      return file;
    },
  };
}
