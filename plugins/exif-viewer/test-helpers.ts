/** Shared by the tests of this folder: fixtures, invoke shortcuts and builders of hostile files. */
import { readFileSync } from 'node:fs';
import { constants, deflateRawSync } from 'node:zlib';
import { invoke } from '@toolshed/plugin-sdk/testing';
import exifViewer from './index.js';
import type { ReadAnswer, StripAnswer } from './image.js';
import { pngChunk, PNG_SIGNATURE } from './png.js';

// Compiled tests live in dist/plugins/exif-viewer; the fixtures stay in the source folder.
const fixtures = new URL('../../../plugins/exif-viewer/fixtures/', import.meta.url);

export function fixture(name: string): Buffer {
  return readFileSync(new URL(name, fixtures));
}

export async function read(bytes: Uint8Array): Promise<ReadAnswer> {
  return (await invoke(exifViewer, 'read', { dataBase64: Buffer.from(bytes).toString('base64') })) as ReadAnswer;
}

export async function strip(bytes: Uint8Array): Promise<StripAnswer & { data: Buffer }> {
  const answer = (await invoke(exifViewer, 'strip', { dataBase64: Buffer.from(bytes).toString('base64') })) as StripAnswer;
  return { ...answer, data: Buffer.from(answer.dataBase64, 'base64') };
}

/** A PNG from chunks [type, data] between the signature and IEND. */
export function png(chunks: readonly [string, Uint8Array][]): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ...chunks.map(([type, data]) => pngChunk(type, data)), pngChunk('IEND', new Uint8Array(0))]);
}

/** IHDR of a 1×1 8-bit greyscale image and its one IDAT (zlib of filter byte 0 + pixel 0xff). */
export const TINY_IHDR: [string, Uint8Array] = ['IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])];
export const TINY_IDAT: [string, Uint8Array] = ['IDAT', Buffer.from('789c63f80f0001010100', 'hex')];

/**
 * A valid zlib stream that inflates to `mebibytes` MiB of `byte`, built without allocating them:
 * one full-flushed deflate block of 1 MiB (about 1 KB, byte-aligned) repeated, a final empty
 * block, and the Adler-32 of the whole: a = 1 + byte·n, b = n + byte·n(n+1)/2, both mod 65521.
 */
export function deflateBomb(mebibytes: number, byte = 0x61): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20, byte), { finishFlush: constants.Z_FULL_FLUSH });
  const n = BigInt(mebibytes) * 1048576n;
  const value = BigInt(byte);
  const a = (1n + value * n) % 65521n;
  const b = (n + (value * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(mebibytes).fill(block), Buffer.from([0x03, 0x00]), adler]);
}
