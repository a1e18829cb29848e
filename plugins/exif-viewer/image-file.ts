/** What each container walker (JPEG, PNG, WebP) finds, in one shape. */
import { UnprocessableError } from '@toolshed/plugin-sdk';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export interface TextEntry {
  key: string;
  value: string;
}

export interface ImageFile {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** TIFF bytes of the first EXIF block, without any "Exif\0\0" prefix. */
  readonly exif: Uint8Array | undefined;
  readonly xmp: boolean;
  readonly iptc: boolean;
  /** A preview outside EXIF (JFIF or JFXX thumbnail). */
  readonly thumbnail: boolean;
  readonly comments: readonly string[];
  readonly texts: readonly TextEntry[];
  /** Names of the other removable blocks, each once. */
  readonly other: readonly string[];
  /** The file without its metadata; `orientation` (a TIFF block) is written as its only EXIF. */
  rebuild(orientation: Buffer | undefined): Buffer;
}

/** At most this many comments or texts are listed; each value is cut to MAX_TEXT_CHARS. */
export const MAX_ENTRIES = 64;
export const MAX_TEXT_CHARS = 2048;

export function invalidImage(message: string): UnprocessableError {
  return new UnprocessableError('invalid_image', message);
}

/** A block's identifier for `other`: its printable ASCII, at most 24 characters. */
export function printable(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    if (byte < 0x20 || byte > 0x7e || text.length >= 24) break;
    text += String.fromCharCode(byte);
  }
  return text.trim();
}

/** Adds a block name to `other`, at most MAX_ENTRIES of them (a file can hold a million tiny blocks). */
export function noteBlock(other: Set<string>, name: string): void {
  if (other.size < MAX_ENTRIES) other.add(name);
}

/**
 * The byte ranges of the input that strip keeps, as flat [start, end) pairs merged when they touch,
 * so a file of a million tiny segments costs numbers, not a million Buffer views. A start of -1
 * stands for one zero byte that is not in the input (a RIFF pad byte).
 */
export class KeptRanges {
  private readonly bounds: number[] = [];
  private total = 0;

  add(start: number, end: number): void {
    const last = this.bounds.length - 1;
    if (last > 0 && start >= 0 && this.bounds[last] === start) this.bounds[last] = end;
    else this.bounds.push(start, end);
    this.total += end - start;
  }

  addZeroByte(): void {
    this.bounds.push(-1, 0);
    this.total += 1;
  }

  get byteLength(): number {
    return this.total;
  }

  /** Copies the kept bytes of `source` into `target` from `at`; returns the offset after them. */
  copy(source: Buffer, target: Buffer, at: number): number {
    let offset = at;
    for (let index = 0; index < this.bounds.length; index += 2) {
      const start = this.bounds[index] as number;
      const end = this.bounds[index + 1] as number;
      if (start < 0) target[offset++] = 0;
      else offset += source.copy(target, offset, start, end);
    }
    return offset;
  }
}
