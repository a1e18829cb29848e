import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import exifViewer from './index.js';
import { fixture, png, read, TINY_IDAT, TINY_IHDR } from './test-helpers.js';
import { MAX_ENTRIES, MAX_TEXT_CHARS } from './image-file.js';
import { exifrOptionsFor } from './tags.js';

// Expected values are exiftool 12.57's (`exiftool -a -G1 -s <file>`) for the fixtures made by
// fixtures/make-fixtures.sh; the relevant lines are quoted above each test.

describe('exif-viewer.read on the JPEG fixture', () => {
  // [File] Comment: Hello from exiftool; ImageWidth 16; ImageHeight 12
  // [IFD0] Make Canon; Model Canon EOS 5D Mark IV; Orientation Horizontal (normal); XResolution 1;
  //        YResolution 1; ResolutionUnit None; Software GIMP 2.10; Artist Jane Doe; YCbCrPositioning Centered
  // [ExifIFD] ExposureTime 1/250; FNumber 8.0; ISO 200; ExifVersion 0232; DateTimeOriginal 2023:07:14 18:32:05;
  //        CreateDate 2023:07:14 18:32:05; OffsetTimeOriginal +02:00; ComponentsConfiguration Y, Cb, Cr, -;
  //        FocalLength 47.0 mm; FlashpixVersion 0100; ColorSpace Uncalibrated; LensModel EF24-105mm f/4L IS USM
  // [GPS] GPSVersionID 2.3.0.0; GPSLatitudeRef North; GPSLatitude 48 deg 51' 29.52"; GPSLongitudeRef East;
  //        GPSLongitude 2 deg 17' 40.20"; GPSAltitudeRef Above Sea Level; GPSAltitude 35.5 m
  // [IFD1] ThumbnailLength 286; [IPTC] Keywords Paris; [XMP-dc] Title Eiffel; [ICC_Profile] present
  it('shows the camera, capture, location, image, software and author tags as exiftool reads them', async () => {
    const answer = await read(fixture('camera.jpg'));
    assert.deepEqual(answer.tags, [
      { key: 'Make', group: 'camera', value: 'Canon' },
      { key: 'Model', group: 'camera', value: 'Canon EOS 5D Mark IV' },
      { key: 'LensModel', group: 'camera', value: 'EF24-105mm f/4L IS USM' },
      { key: 'DateTimeOriginal', group: 'capture', value: '2023:07:14 18:32:05' },
      { key: 'CreateDate', group: 'capture', value: '2023:07:14 18:32:05' },
      { key: 'OffsetTimeOriginal', group: 'capture', value: '+02:00' },
      { key: 'ExposureTime', group: 'capture', value: '1/250' },
      { key: 'FNumber', group: 'capture', value: '8.0' },
      { key: 'ISO', group: 'capture', value: '200' },
      { key: 'FocalLength', group: 'capture', value: '47.0 mm' },
      // 48 + 51/60 + 29.52/3600 = 48.8582; 2 + 17/60 + 40.2/3600 = 2.2945
      { key: 'GPSPosition', group: 'location', value: '48.8582, 2.2945' },
      { key: 'GPSAltitude', group: 'location', value: '35.5 m' },
      { key: 'ImageWidth', group: 'image', value: '16' },
      { key: 'ImageHeight', group: 'image', value: '12' },
      { key: 'Orientation', group: 'image', value: 'Horizontal (normal)' },
      { key: 'XResolution', group: 'image', value: '1' },
      { key: 'YResolution', group: 'image', value: '1' },
      { key: 'ResolutionUnit', group: 'image', value: 'None' },
      { key: 'ColorSpace', group: 'image', value: 'Uncalibrated' },
      { key: 'Software', group: 'software', value: 'GIMP 2.10' },
      { key: 'Artist', group: 'author', value: 'Jane Doe' },
    ]);
    assert.deepEqual(answer.gps, { lat: 48.8582, lon: 2.2945 });
  });

  it('counts the other entries and reports thumbnail, XMP, IPTC, the comment and the ICC profile', async () => {
    const answer = await read(fixture('camera.jpg'));
    assert.deepEqual({ ...answer, tags: [], gps: null }, {
      tags: [], // the test above
      gps: null,
      format: 'jpeg',
      hasMetadata: true,
      // YCbCrPositioning, ExifVersion, ComponentsConfiguration, FlashpixVersion, GPSVersionID
      otherTags: 5,
      thumbnail: true,
      xmp: true,
      iptc: true,
      comments: ['Hello from exiftool'],
      texts: [],
      other: ['ICC profile'],
    });
  });
});

describe('exif-viewer.read on the PNG fixture', () => {
  // [PNG] Author Jane Doe (tEXt); Title Sunset (tEXt); Comment compressed comment, … (zTXt);
  //       Description Größe ✓ (iTXt); ModifyDate 2022:02:03 04:05:06 (tIME); ICC_Profile (iCCP); XMP-dc Rights CC0
  // [IFD0] Make Nikon; Model NIKON D750; XResolution 72; YResolution 72; ResolutionUnit inches; YCbCrPositioning Centered
  // [ExifIFD] ExifVersion 0232; DateTimeOriginal 2021:01:02 03:04:05; ComponentsConfiguration Y, Cb, Cr, -;
  //           FlashpixVersion 0100; ColorSpace Uncalibrated
  it('reads eXIf, all three text chunk kinds (zTXt inflated), XMP, iCCP and tIME', async () => {
    assert.deepEqual(await read(fixture('texts.png')), {
      format: 'png',
      hasMetadata: true,
      gps: null,
      tags: [
        { key: 'Make', group: 'camera', value: 'Nikon' },
        { key: 'Model', group: 'camera', value: 'NIKON D750' },
        { key: 'DateTimeOriginal', group: 'capture', value: '2021:01:02 03:04:05' },
        { key: 'ImageWidth', group: 'image', value: '8' },
        { key: 'ImageHeight', group: 'image', value: '8' },
        { key: 'XResolution', group: 'image', value: '72' },
        { key: 'YResolution', group: 'image', value: '72' },
        { key: 'ResolutionUnit', group: 'image', value: 'inches' },
        { key: 'ColorSpace', group: 'image', value: 'Uncalibrated' },
      ],
      otherTags: 4, // YCbCrPositioning, ExifVersion, ComponentsConfiguration, FlashpixVersion
      thumbnail: false,
      xmp: true,
      iptc: false,
      comments: [],
      texts: [
        { key: 'Author', value: 'Jane Doe' },
        { key: 'Title', value: 'Sunset' },
        { key: 'Comment', value: 'compressed comment, compressed comment, compressed comment' },
        { key: 'Description', value: 'Größe ✓' },
      ],
      other: ['ICC profile', 'tIME'],
    });
  });
});

describe('exif-viewer.read on the WebP fixture', () => {
  // [RIFF] WebP_Flags XMP, EXIF, ICC Profile; ImageWidth 16; ImageHeight 12
  // [IFD0] Make Google; Model Pixel 7; Orientation Rotate 180; XResolution 72; YResolution 72;
  //        ResolutionUnit inches; YCbCrPositioning Centered
  // [ExifIFD] ExifVersion 0232; DateTimeOriginal 2024:03:09 10:11:12; ComponentsConfiguration; FlashpixVersion;
  //           ColorSpace Uncalibrated
  // [GPS] GPSVersionID 2.3.0.0; GPSLatitude 35 deg 39' 30.96" N; GPSLongitude 139 deg 44' 43.44" E
  it('finds EXIF, XMP and ICCP chunks with its own RIFF walk and decodes the EXIF', async () => {
    const answer = await read(fixture('meta.webp'));
    assert.deepEqual(answer.tags, [
      { key: 'Make', group: 'camera', value: 'Google' },
      { key: 'Model', group: 'camera', value: 'Pixel 7' },
      { key: 'DateTimeOriginal', group: 'capture', value: '2024:03:09 10:11:12' },
      // 35 + 39/60 + 30.96/3600 = 35.6586; 139 + 44/60 + 43.44/3600 = 139.7454
      { key: 'GPSPosition', group: 'location', value: '35.6586, 139.7454' },
      { key: 'ImageWidth', group: 'image', value: '16' },
      { key: 'ImageHeight', group: 'image', value: '12' },
      { key: 'Orientation', group: 'image', value: 'Rotate 180' },
      { key: 'XResolution', group: 'image', value: '72' },
      { key: 'YResolution', group: 'image', value: '72' },
      { key: 'ResolutionUnit', group: 'image', value: 'inches' },
      { key: 'ColorSpace', group: 'image', value: 'Uncalibrated' },
    ]);
    assert.deepEqual({ ...answer, tags: [] }, {
      tags: [], // just above
      format: 'webp',
      hasMetadata: true,
      gps: { lat: 35.6586, lon: 139.7454 },
      otherTags: 5, // YCbCrPositioning, ExifVersion, ComponentsConfiguration, FlashpixVersion, GPSVersionID
      thumbnail: false,
      xmp: true,
      iptc: false,
      comments: [],
      texts: [],
      other: ['ICC profile'],
    });
  });
});

describe('exif-viewer.read of orientation-only files', () => {
  // exiftool: [IFD0] Orientation Rotate 90 CW (orient6.jpg, orient6.webp), Rotate 270 CW (orient8.png); nothing else
  for (const [name, format, size, orientation] of [
    ['orient6.jpg', 'jpeg', ['16', '12'], 'Rotate 90 CW'],
    ['orient8.png', 'png', ['8', '8'], 'Rotate 270 CW'],
    ['orient6.webp', 'webp', ['8', '8'], 'Rotate 90 CW'],
  ] as const) {
    it(`says hasMetadata false for ${name}`, async () => {
      assert.deepEqual(await read(fixture(name)), {
        format,
        hasMetadata: false,
        gps: null,
        tags: [
          { key: 'ImageWidth', group: 'image', value: size[0] },
          { key: 'ImageHeight', group: 'image', value: size[1] },
          { key: 'Orientation', group: 'image', value: orientation },
        ],
        otherTags: 0,
        thumbnail: false,
        xmp: false,
        iptc: false,
        comments: [],
        texts: [],
        other: [],
      });
    });
  }
});

describe('exif-viewer.read input handling', () => {
  it('keeps dates as the file writes them, whatever the server time zone', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: a Date round trip would move the day
    try {
      const { tags } = await read(fixture('camera.jpg'));
      assert.equal(tags.find((tag) => tag.key === 'DateTimeOriginal')?.value, '2023:07:14 18:32:05');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('accepts the URL-safe alphabet, whitespace and a data: URL prefix', async () => {
    const base64 = fixture('orient8.png').toString('base64');
    const expected = await invoke(exifViewer, 'read', { dataBase64: base64 });
    const urlSafe = base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.deepEqual(await invoke(exifViewer, 'read', { dataBase64: urlSafe }), expected);
    assert.deepEqual(await invoke(exifViewer, 'read', { dataBase64: `data:image/png;base64,${base64.slice(0, 40)}\n${base64.slice(40)}` }), expected);
  });

  it('refuses bad Base64 with 422 invalid_base64 and an empty string with 400', async () => {
    await rejectsWith(invoke(exifViewer, 'read', { dataBase64: 'iVBO!!' }), 422, 'invalid_base64');
    await rejectsWith(invoke(exifViewer, 'strip', { dataBase64: 'iVBOR' }), 422, 'invalid_base64'); // 5 characters: a dangling one
    await rejectsField(invoke(exifViewer, 'read', { dataBase64: '' }), '/dataBase64');
    await rejectsField(invoke(exifViewer, 'strip', { dataBase64: 'aGk=', extra: 1 }), '/extra');
  });

  it('refuses GIF, text and other RIFF files with 422 unsupported_format', async () => {
    for (const text of ['GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'hello world', 'RIFF\x04\x00\x00\x00WAVE', '\x00']) {
      const dataBase64 = Buffer.from(text, 'latin1').toString('base64');
      await rejectsWith(invoke(exifViewer, 'read', { dataBase64 }), 422, 'unsupported_format');
      await rejectsWith(invoke(exifViewer, 'strip', { dataBase64 }), 422, 'unsupported_format');
    }
  });

  it('refuses truncated and malformed files with 422 invalid_image', async () => {
    const jpeg = fixture('camera.jpg');
    const pngFile = fixture('texts.png');
    const webp = fixture('meta.webp');
    const badCrc = Buffer.from(pngFile);
    badCrc[42] = (badCrc[42] as number) ^ 0xff; // a data byte of gAMA (chunk at 33, data at 41): the CRC no longer matches
    const bigRiff = Buffer.from(webp);
    bigRiff.writeUInt32LE(webp.length, 4); // 8 bytes more than the file holds
    for (const bytes of [jpeg.subarray(0, jpeg.length - 2), jpeg.subarray(0, 100), pngFile.subarray(0, 60), badCrc, webp.subarray(0, 200), bigRiff, Buffer.from('\x89PNG\r\n\x1a\x00', 'latin1'), Buffer.from('RIFF', 'latin1')]) {
      await rejectsWith(read(bytes), 422, 'invalid_image');
    }
  });

  it(`lists at most ${MAX_ENTRIES} texts and cuts each value at ${MAX_TEXT_CHARS} characters`, async () => {
    const many = Array.from({ length: MAX_ENTRIES + 6 }, (_, index): [string, Uint8Array] => ['tEXt', Buffer.from(`k${index}\0${'v'.repeat(3000)}`, 'latin1')]);
    const { texts, hasMetadata } = await read(png([TINY_IHDR, ...many, TINY_IDAT]));
    assert.equal(texts.length, MAX_ENTRIES);
    assert.equal(hasMetadata, true);
    assert.deepEqual(texts[0], { key: 'k0', value: `${'v'.repeat(MAX_TEXT_CHARS - 1)}…` });
  });
});

describe("exifr's options cache", () => {
  it('keeps nothing of a read: every read gets options built fresh, none cached by exifr', () => {
    // Without the fix exifr's module-level Map answers the same cached object for the same options,
    // and holds every options object given to it for good. (No collection is forced to show it: a
    // test that reaches V8's gc depends on the engine, not on our code.)
    const options = { tiff: true, ifd0: { pick: [0x010f] } };
    assert.notEqual(exifrOptionsFor(options), exifrOptionsFor(options), 'built fresh each time');
  });
});
