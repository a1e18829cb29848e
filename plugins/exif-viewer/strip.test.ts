import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture, png, read, strip, TINY_IDAT, TINY_IHDR } from './test-helpers.js';

/** The chunks of a PNG as [type, whole chunk bytes], by a walk independent of png.ts. */
function pngChunks(file: Buffer): [string, Buffer][] {
  const chunks: [string, Buffer][] = [];
  for (let at = 8; at < file.length; at += 12 + file.readUInt32BE(at)) {
    chunks.push([file.toString('latin1', at + 4, at + 8), file.subarray(at, at + 12 + file.readUInt32BE(at))]);
  }
  return chunks;
}

/** The chunks of a WebP as [type, payload]. */
function riffChunks(file: Buffer): [string, Buffer][] {
  const chunks: [string, Buffer][] = [];
  for (let at = 12; at < file.length; at += 8 + file.readUInt32LE(at + 4) + (file.readUInt32LE(at + 4) & 1)) {
    chunks.push([file.toString('latin1', at, at + 4), file.subarray(at + 8, at + 8 + file.readUInt32LE(at + 4))]);
  }
  return chunks;
}

// orient6.jpg as exiftool wrote it: FF D8, then APP1 (FF E1 00 22 "Exif\0\0") whose 26-byte TIFF is
// MM 00 2A 00000008 | 0001 | 0112 0003 00000001 0006 0000 | 00000000.
const exiftoolOrientation6 = fixture('orient6.jpg').subarray(12, 38);

describe('exif-viewer.strip', () => {
  it('leaves the JPEG picture (tables, frame, scan) byte for byte and keeps JFIF without its thumbnail', async () => {
    const original = fixture('camera.jpg');
    const { data, format, bytesBefore, bytesAfter } = await strip(original);
    // camera.jpg: SOI, JFIF APP0 (16 bytes), then exiftool's APP1 Exif/XMP, APP2 ICC, APP13 IPTC and COM,
    // then ImageMagick's DQT (FF DB) … SOS, scan, EOI. Stripped: SOI + JFIF + everything from DQT on.
    let at = 2;
    while (original[at + 1] === 0xfe || ((original[at + 1] as number) & 0xf0) === 0xe0) at += 2 + original.readUInt16BE(at + 2);
    assert.equal(original[at + 1], 0xdb);
    const picture = original.subarray(at);
    assert.deepEqual(data, Buffer.concat([original.subarray(0, 20), picture]));
    assert.deepEqual([format, bytesBefore, bytesAfter], ['jpeg', 4845, 20 + picture.length]);
  });

  it('keeps the PNG pixel and colour chunks and drops texts, eXIf, iCCP, tIME and XMP', async () => {
    const original = fixture('texts.png');
    const { data, bytesAfter } = await strip(original);
    const kept = pngChunks(original).filter(([type]) => ['IHDR', 'gAMA', 'cHRM', 'bKGD', 'IDAT', 'IEND'].includes(type));
    assert.deepEqual(data, Buffer.concat([original.subarray(0, 8), ...kept.map(([, chunk]) => chunk)]));
    assert.equal(bytesAfter, 8 + 25 + 16 + 44 + 18 + 78 + 12); // signature, IHDR, gAMA, cHRM, bKGD, IDAT (66), IEND
  });

  it('rebuilds the WebP with VP8X flags and RIFF size fixed and the orientation in a 26-byte EXIF', async () => {
    const original = fixture('meta.webp');
    const { data } = await strip(original);
    const vp8 = riffChunks(original).find(([type]) => type === 'VP8 ')?.[1];
    const expectedExif = Buffer.from(exiftoolOrientation6);
    expectedExif[19] = 3; // meta.webp has orientation 3 (Rotate 180)
    assert.deepEqual(riffChunks(data).map(([type]) => type), ['VP8X', 'VP8 ', 'EXIF']);
    assert.deepEqual(riffChunks(data)[1]?.[1], vp8);
    assert.deepEqual(riffChunks(data)[2]?.[1], expectedExif);
    assert.equal(riffChunks(original)[0]?.[1][0], 0x2c); // ICC 0x20 | EXIF 0x08 | XMP 0x04
    assert.equal(riffChunks(data)[0]?.[1][0], 0x08); // EXIF only
    assert.equal(data.readUInt32LE(4), data.length - 8);
    assert.equal(data.length, 12 + 18 + 8 + 68 + 8 + 26);
  });

  it('gives back an orientation-only file unchanged: our minimal EXIF is byte for byte the one exiftool writes', async () => {
    for (const name of ['orient6.jpg', 'orient8.png']) {
      const original = fixture(name);
      assert.deepEqual((await strip(original)).data, original, name);
    }
  });

  it('keeps ALPH and the alpha flag of a WebP with orientation 6', async () => {
    const original = fixture('orient6.webp');
    const { data } = await strip(original);
    assert.deepEqual(riffChunks(data).map(([type]) => type), ['VP8X', 'ALPH', 'VP8 ', 'EXIF']);
    assert.deepEqual(riffChunks(data)[1]?.[1], riffChunks(original)[1]?.[1]);
    assert.deepEqual(riffChunks(data)[3]?.[1], exiftoolOrientation6);
    assert.equal(riffChunks(data)[0]?.[1][0], 0x18); // alpha 0x10 | EXIF 0x08, as before
  });

  it('is idempotent and leaves nothing /read counts as metadata', async () => {
    for (const name of ['camera.jpg', 'texts.png', 'meta.webp', 'orient6.jpg', 'orient8.png', 'orient6.webp', 'example.png']) {
      const once = await strip(fixture(name));
      assert.deepEqual((await strip(once.data)).data, once.data, name);
      assert.equal((await read(once.data)).hasMetadata, false, name);
    }
  });

  it('drops a JFIF thumbnail and rewrites the JFIF segment to 16 bytes', async () => {
    // camera.jpg bytes 2–19 are ImageMagick's JFIF APP0 (length 16, thumbnail 0×0). Give it a 1×1
    // thumbnail (3 bytes of RGB, length 19) in front of orient6.jpg's segments.
    const jfif = Buffer.from(fixture('camera.jpg').subarray(2, 20));
    const withThumbnail = Buffer.concat([jfif, Buffer.from([0xff, 0x00, 0x00])]);
    withThumbnail.writeUInt16BE(19, 2);
    withThumbnail[16] = 1;
    withThumbnail[17] = 1;
    const orient6 = fixture('orient6.jpg');
    const file = Buffer.concat([orient6.subarray(0, 2), withThumbnail, orient6.subarray(2)]);
    const answer = await read(file);
    assert.deepEqual([answer.thumbnail, answer.hasMetadata], [true, true]);
    assert.deepEqual((await strip(file)).data, Buffer.concat([orient6.subarray(0, 2), jfif, orient6.subarray(2)]));
  });

  it('keeps a simple-format WebP (no VP8X) simple and drops its stray chunks', async () => {
    const vp8 = riffChunks(fixture('meta.webp')).find(([type]) => type === 'VP8 ')?.[1] ?? Buffer.alloc(0);
    const chunk = (type: string, data: Buffer) => {
      const header = Buffer.alloc(8);
      header.write(type, 0, 'latin1');
      header.writeUInt32LE(data.length, 4);
      return Buffer.concat([header, data, Buffer.alloc(data.length & 1)]);
    };
    const riff = (body: Buffer) => {
      const header = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
      header.writeUInt32LE(4 + body.length, 4);
      return Buffer.concat([header, body]);
    };
    const simple = riff(chunk('VP8 ', vp8));
    const file = riff(Buffer.concat([chunk('VP8 ', vp8), chunk('XMP ', Buffer.from('<x/>')), chunk('ABCD', Buffer.from('odd'))]));
    const answer = await read(file);
    // The VP8 frame header of meta.webp says 16×12 (bytes 6–9 of the payload, 14 bits each).
    assert.deepEqual(answer.tags.slice(0, 2), [
      { key: 'ImageWidth', group: 'image', value: '16' },
      { key: 'ImageHeight', group: 'image', value: '12' },
    ]);
    assert.deepEqual([answer.xmp, answer.other], [true, ['ABCD']]);
    assert.deepEqual((await strip(file)).data, simple);
    assert.equal((await read(simple)).hasMetadata, false);
  });

  it('drops data after the JPEG EOI and names it', async () => {
    const original = fixture('orient6.jpg');
    const withTrailer = Buffer.concat([original, Buffer.from('SAMSUNG trailer')]);
    assert.deepEqual((await read(withTrailer)).other, ['trailing data']);
    assert.equal((await read(withTrailer)).hasMetadata, true);
    assert.deepEqual((await strip(withTrailer)).data, original);
  });

  it('drops unknown ancillary PNG chunks but keeps unknown critical ones', async () => {
    const file = png([TINY_IHDR, ['vpAg', Buffer.alloc(9)], ['ABCD', Buffer.from('x')], TINY_IDAT]);
    assert.deepEqual((await read(file)).other, ['vpAg']);
    const { data } = await strip(file);
    assert.deepEqual(pngChunks(data).map(([type]) => type), ['IHDR', 'ABCD', 'IDAT', 'IEND']);
  });
});
