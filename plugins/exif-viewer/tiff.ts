/**
 * A bounded walk over the TIFF structure of an EXIF block: which entries IFD0, the Exif IFD and the
 * GPS IFD hold, whether IFD1 describes a thumbnail, and the orientation. exifr decodes the values;
 * this walk decides which tags are safe to hand it (a hostile entry may claim a 4 GB count) and
 * counts the rest. Each IFD is read once, so pointer loops cannot make it loop.
 */

/** One IFD entry as stored: tag id, TIFF type, value count and the bytes the values take. */
export interface IfdEntry {
  readonly tag: number;
  readonly type: number;
  readonly count: number;
  readonly byteSize: number;
}

export interface TiffSummary {
  readonly ifd0: readonly IfdEntry[];
  readonly exif: readonly IfdEntry[];
  readonly gps: readonly IfdEntry[];
  /** IFD1 points at an embedded preview (JPEG or strips). */
  readonly thumbnail: boolean;
  /** 1–8; 1 when absent or out of range. */
  readonly orientation: number;
}

export const TAG_ORIENTATION = 0x0112;
/** Structure, not metadata: offsets of the sub-IFDs. */
export const POINTER_TAGS: ReadonlySet<number> = new Set([0x8769, 0x8825, 0xa005]);

// Bytes per value of TIFF types 1–13 (index = type); unknown types take 0.
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];

class TiffReader {
  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {}

  u16(offset: number): number {
    const [a = 0, b = 0] = [this.bytes[offset], this.bytes[offset + 1]];
    return this.littleEndian ? a | (b << 8) : (a << 8) | b;
  }

  u32(offset: number): number {
    const low = this.u16(offset + (this.littleEndian ? 0 : 2));
    const high = this.u16(offset + (this.littleEndian ? 2 : 0));
    return high * 0x10000 + low;
  }

  /** The entries of the IFD at `offset`, cut at the end of the block; [] when it is out of range. */
  entries(offset: number): { list: IfdEntry[]; end: number } {
    if (offset < 8 || offset + 2 > this.bytes.length) return { list: [], end: -1 };
    const declared = this.u16(offset);
    const fitting = Math.floor((this.bytes.length - offset - 2) / 12);
    const count = Math.min(declared, fitting);
    const list: IfdEntry[] = [];
    for (let index = 0; index < count; index++) {
      const at = offset + 2 + index * 12;
      const type = this.u16(at + 2);
      const valueCount = this.u32(at + 4);
      list.push({ tag: this.u16(at), type, count: valueCount, byteSize: valueCount * (TYPE_SIZES[type] ?? 0) });
    }
    return { list, end: declared <= fitting ? offset + 2 + declared * 12 : -1 };
  }

  /** The first value of a SHORT or LONG entry (the offset field holds it inline). */
  inlineValue(ifdOffset: number, list: readonly IfdEntry[], tag: number): number | undefined {
    const index = list.findIndex((entry) => entry.tag === tag);
    const entry = list[index];
    if (entry === undefined || entry.count < 1) return undefined;
    const at = ifdOffset + 2 + index * 12 + 8;
    if (entry.type === 3) return this.u16(at);
    if (entry.type === 4 || entry.type === 13) return this.u32(at);
    return undefined;
  }
}

/** The TIFF header's byte order and IFD0 offset, or undefined when the block is not TIFF. */
function openTiff(bytes: Uint8Array): { reader: TiffReader; ifd0: number } | undefined {
  if (bytes.length < 8) return undefined;
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (order !== 'II' && order !== 'MM') return undefined;
  const reader = new TiffReader(bytes, order === 'II');
  if (reader.u16(2) !== 42) return undefined;
  return { reader, ifd0: reader.u32(4) };
}

/** Walks IFD0, its Exif and GPS sub-IFDs and IFD1; undefined when `bytes` is not a TIFF block. */
export function scanTiff(bytes: Uint8Array): TiffSummary | undefined {
  const opened = openTiff(bytes);
  if (opened === undefined) return undefined;
  const { reader, ifd0: ifd0Offset } = opened;
  const ifd0 = reader.entries(ifd0Offset);
  const subIfd = (tag: number): IfdEntry[] => {
    const offset = reader.inlineValue(ifd0Offset, ifd0.list, tag);
    return offset === undefined ? [] : reader.entries(offset).list;
  };
  const nextOffset = ifd0.end < 0 || ifd0.end + 4 > bytes.length ? 0 : reader.u32(ifd0.end);
  const ifd1 = nextOffset === 0 ? [] : reader.entries(nextOffset).list;
  const has = (tag: number) => ifd1.some((entry) => entry.tag === tag && entry.count > 0);
  const thumbnailLength = nextOffset === 0 ? undefined : reader.inlineValue(nextOffset, ifd1, 0x0202);
  const orientation = reader.inlineValue(ifd0Offset, ifd0.list, TAG_ORIENTATION) ?? 1;
  return {
    ifd0: ifd0.list,
    exif: subIfd(0x8769),
    gps: subIfd(0x8825),
    thumbnail: (has(0x0201) && (thumbnailLength ?? 0) > 0) || has(0x0111),
    orientation: orientation >= 1 && orientation <= 8 ? orientation : 1,
  };
}

/** True when the block holds anything besides the orientation (and the IFD pointers). */
export function hasExifMetadata(summary: TiffSummary): boolean {
  const meaningful = (entry: IfdEntry) => entry.tag !== TAG_ORIENTATION && !POINTER_TAGS.has(entry.tag);
  return summary.thumbnail || summary.ifd0.some(meaningful) || summary.exif.some(meaningful) || summary.gps.length > 0;
}

/**
 * The smallest EXIF block that keeps an orientation: a big-endian TIFF header and an IFD0 with one
 * SHORT entry (tag 0x0112) and no next IFD — 26 bytes, the same layout exiftool writes.
 */
export function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(TAG_ORIENTATION, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value, inline in the first two bytes of the offset field
  tiff.writeUInt16BE(orientation, 18);
  // bytes 20–21 pad the value field; 22–25 are the next-IFD offset 0
  return tiff;
}
