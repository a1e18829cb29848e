/**
 * A JPEG segment walker. It reads marker segments up to EOI, steps over each scan's entropy-coded
 * data by looking for the next marker (0xFF not followed by 0x00 or RSTn), and sorts segments into
 * those that make the picture (kept byte for byte) and metadata (dropped). One pass, linear.
 */
import { clip } from './tags.js';
import { invalidImage, KeptRanges, MAX_ENTRIES, MAX_TEXT_CHARS, noteBlock, printable, type ImageFile } from './image-file.js';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;
const APP0 = 0xe0;

const latin1 = (bytes: Uint8Array, length: number) => Buffer.from(bytes.subarray(0, length)).toString('latin1');
const startsWith = (bytes: Uint8Array, id: string) => bytes.length >= id.length && latin1(bytes, id.length) === id;
const utf8 = new TextDecoder('utf-8');

function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** True when a Photoshop APP13 block holds an IPTC-NAA resource (8BIM 0x0404). */
function hasIptcResource(payload: Uint8Array): boolean {
  const data = Buffer.from(payload);
  let at = 'Photoshop 3.0\0'.length;
  while (at + 12 <= data.length && data.toString('latin1', at, at + 4) === '8BIM') {
    const id = data.readUInt16BE(at + 4);
    const nameLength = ((data[at + 6] ?? 0) + 2) & ~1; // Pascal string padded to even
    const sizeAt = at + 6 + nameLength;
    if (sizeAt + 4 > data.length) return false;
    const size = data.readUInt32BE(sizeAt);
    if (id === 0x0404 && size > 0) return true;
    at = sizeAt + 4 + size + (size & 1);
  }
  return false;
}

/** Walks a JPEG file (it starts with FF D8); throws invalid_image when it is malformed or cut short. */
export function parseJpeg(bytes: Uint8Array): ImageFile {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept = new KeptRanges();
  const other = new Set<string>();
  const comments: string[] = [];
  let jfif: Buffer | undefined;
  let exif: Uint8Array | undefined;
  let xmp = false;
  let iptc = false;
  let thumbnail = false;
  let frame: { width: number; height: number } | undefined;
  let pos = 2;
  for (;;) {
    if (bytes[pos] !== 0xff) throw invalidImage(pos >= bytes.length ? 'The JPEG file ends before its EOI marker' : `Expected a JPEG marker at byte ${pos}`);
    let at = pos + 1;
    while (bytes[at] === 0xff) at++; // fill bytes
    if (at >= bytes.length) throw invalidImage('The JPEG file ends before its EOI marker');
    const marker = bytes[at] as number;
    if (marker === EOI) {
      pos = at + 1;
      break;
    }
    if (marker === 0x00 || marker === SOI) throw invalidImage(`Unexpected JPEG marker at byte ${at - 1}`);
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      kept.add(at - 1, at + 1); // standalone marker without a length
      pos = at + 1;
      continue;
    }
    if (at + 3 > bytes.length) throw invalidImage('The JPEG file ends inside a segment header');
    const length = ((bytes[at + 1] as number) << 8) | (bytes[at + 2] as number);
    const end = at + 1 + length;
    if (length < 2 || end > bytes.length) throw invalidImage(`The JPEG segment at byte ${at - 1} has an impossible length`);
    const payload = bytes.subarray(at + 3, end);
    pos = end;
    if (isFrameHeader(marker) && frame === undefined) {
      if (payload.length < 6) throw invalidImage('The JPEG frame header is too short');
      frame = { height: ((payload[1] as number) << 8) | (payload[2] as number), width: ((payload[3] as number) << 8) | (payload[4] as number) };
    }
    if (marker === SOS) {
      if (frame === undefined) throw invalidImage('The JPEG scan starts before a frame header');
      kept.add(at - 1, end);
      let scan = end;
      for (;;) {
        if (scan + 1 >= bytes.length) throw invalidImage('The JPEG file ends inside image data');
        if (bytes[scan] === 0xff) {
          const next = bytes[scan + 1] as number;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) scan += 2;
          else if (next === 0xff) scan += 1;
          else break;
        } else scan++;
      }
      kept.add(end, scan);
      pos = scan;
      continue;
    }
    if (marker === COM) {
      if (comments.length < MAX_ENTRIES) comments.push(clip(utf8.decode(payload).replace(/\0+$/, ''), MAX_TEXT_CHARS));
      continue;
    }
    if (marker < APP0 || marker > 0xef) {
      kept.add(at - 1, end); // tables, frame headers, restart intervals: the picture itself
      continue;
    }
    const app = marker - APP0;
    if (app === 0 && startsWith(payload, 'JFIF\0') && payload.length >= 14 && jfif === undefined) {
      thumbnail ||= (payload[12] as number) * (payload[13] as number) > 0;
      jfif = Buffer.from(bytes.subarray(at - 1, at + 3 + 14)); // version, units, density; thumbnail dropped
      jfif.writeUInt16BE(16, 2);
      jfif[16] = 0;
      jfif[17] = 0;
    } else if (app === 0 && startsWith(payload, 'JFXX\0')) {
      thumbnail = true;
    } else if (app === 1 && startsWith(payload, 'Exif\0')) {
      if (exif === undefined) exif = payload.subarray(6);
      else noteBlock(other, 'EXIF');
    } else if (app === 1 && (startsWith(payload, 'http://ns.adobe.com/xap/1.0/\0') || startsWith(payload, 'http://ns.adobe.com/xmp/extension/\0'))) {
      xmp = true;
    } else if (app === 2 && startsWith(payload, 'ICC_PROFILE\0')) {
      noteBlock(other, 'ICC profile');
    } else if (app === 13 && startsWith(payload, 'Photoshop 3.0\0') && hasIptcResource(payload)) {
      iptc = true;
    } else if (app === 14 && startsWith(payload, 'Adobe')) {
      kept.add(at - 1, end); // colour transform of the scans: needed to decode them
    } else {
      noteBlock(other, `APP${app} ${printable(payload)}`.trim());
    }
  }
  if (frame === undefined) throw invalidImage('The JPEG file has no frame header');
  if (pos < bytes.length) noteBlock(other, 'trailing data');
  const image = frame;
  return {
    format: 'jpeg',
    ...image,
    exif,
    xmp,
    iptc,
    thumbnail,
    comments,
    texts: [],
    other: [...other],
    rebuild(orientation) {
      const parts: Uint8Array[] = [Buffer.from([0xff, SOI])];
      if (jfif !== undefined) parts.push(jfif);
      if (orientation !== undefined) {
        const header = Buffer.alloc(10);
        header.writeUInt16BE(0xffe1, 0);
        header.writeUInt16BE(2 + 6 + orientation.length, 2);
        header.write('Exif\0\0', 4, 'latin1');
        parts.push(header, orientation);
      }
      const head = Buffer.concat(parts);
      const file = Buffer.alloc(head.length + kept.byteLength + 2);
      head.copy(file);
      kept.copy(source, file, head.length);
      file.set([0xff, EOI], file.length - 2);
      return file;
    },
  };
}
