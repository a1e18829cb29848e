/**
 * The manifest's example: fixtures/example.png, a 1×1 PNG made with ImageMagick and exiftool (see
 * fixtures/make-fixtures.sh). exiftool lists Make Fujifilm, Model X-T30, DateTimeOriginal
 * 2022:08:01 09:30:00, GPSPosition 51 deg 30' 2.52" N, 0 deg 7' 28.56" W (51.5007, -0.1246),
 * XResolution/YResolution 72, ResolutionUnit inches, ColorSpace Uncalibrated, Title Westminster, and
 * five further entries (YCbCrPositioning, ExifVersion, ComponentsConfiguration, FlashpixVersion,
 * GPSVersionID). Stripped, it is IHDR + IDAT + IEND: 8 + 25 + 22 + 12 = 67 bytes.
 */
import type { ReadAnswer, StripAnswer } from './image.js';

export const EXAMPLE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABAQAAAAA3bvkkAAAAEXRFWHRUaXRsZQBXZXN0bWluc3RlcvyMT/IAAAFWZVhJZk1NACoAAAAIAAgBDwACAAAACQAAAG4BEAACAAAABgAAAHgBGgAFAAAAAQAAAH4BGwAFAAAAAQAAAIYBKAADAAAAAQACAAACEwADAAAAAQABAACHaQAEAAAAAQAAAI6IJQAEAAAAAQAAAOQAAAAARnVqaWZpbG0AAFgtVDMwAAAAAEgAAAABAAAASAAAAAEABZAAAAcAAAAEMDIzMpADAAIAAAAUAAAA0JEBAAcAAAAEAQIDAKAAAAcAAAAEMDEwMKABAAMAAAAB//8AAAAAAAAyMDIyOjA4OjAxIDA5OjMwOjAwAAAFAAAAAQAAAAQCAwAAAAEAAgAAAAJOAAAAAAIABQAAAAMAAAEmAAMAAgAAAAJXAAAAAAQABQAAAAMAAAE+AAAAAAAAADMAAAABAAAAHgAAAAEAAAA/AAAAGQAAAAAAAAABAAAABwAAAAEAAALKAAAAGXHOFlcAAAAKSURBVAjXY2gAAACCAIHdQ2r0AAAAAElFTkSuQmCC';

export const EXAMPLE_READ: ReadAnswer = {
  format: 'png',
  hasMetadata: true,
  gps: { lat: 51.5007, lon: -0.1246 },
  tags: [
    { key: 'Make', group: 'camera', value: 'Fujifilm' },
    { key: 'Model', group: 'camera', value: 'X-T30' },
    { key: 'DateTimeOriginal', group: 'capture', value: '2022:08:01 09:30:00' },
    { key: 'GPSPosition', group: 'location', value: '51.5007, -0.1246' },
    { key: 'ImageWidth', group: 'image', value: '1' },
    { key: 'ImageHeight', group: 'image', value: '1' },
    { key: 'XResolution', group: 'image', value: '72' },
    { key: 'YResolution', group: 'image', value: '72' },
    { key: 'ResolutionUnit', group: 'image', value: 'inches' },
    { key: 'ColorSpace', group: 'image', value: 'Uncalibrated' },
  ],
  otherTags: 5,
  thumbnail: false,
  xmp: false,
  iptc: false,
  comments: [],
  texts: [{ key: 'Title', value: 'Westminster' }],
  other: [],
};

export const EXAMPLE_STRIPPED: StripAnswer = {
  dataBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABAQAAAAA3bvkkAAAACklEQVQI12NoAAAAggCB3UNq9AAAAABJRU5ErkJggg==',
  format: 'png',
  bytesBefore: 450,
  bytesAfter: 67,
};
