/**
 * The EXIF tags /read shows, with the names exiftool gives them, their group, and how the value is
 * written. Every other EXIF entry is only counted (`otherTags`). The GPS position and altitude are
 * composed from several GPS entries and are not in this table.
 */

export type TagGroup = 'camera' | 'capture' | 'location' | 'image' | 'software' | 'author';
export type IfdName = 'ifd0' | 'exif' | 'gps';
/** How a value is written: as exifr gives it (`text`), or in exiftool's notation for the unit. */
export type TagFormat = 'text' | 'exposure' | 'fnumber' | 'focal' | 'focal35' | 'colorSpace';

export interface TagDefinition {
  readonly ifd: IfdName;
  readonly tag: number;
  readonly key: string;
  readonly group: TagGroup;
  readonly format: TagFormat;
}

/** Order of groups in the answer; within a group, the order of the table. */
export const GROUP_ORDER: readonly TagGroup[] = ['camera', 'capture', 'location', 'image', 'software', 'author'];

export const TAGS: readonly TagDefinition[] = [
  { ifd: 'ifd0', tag: 0x010f, key: 'Make', group: 'camera', format: 'text' },
  { ifd: 'ifd0', tag: 0x0110, key: 'Model', group: 'camera', format: 'text' },
  { ifd: 'exif', tag: 0xa431, key: 'SerialNumber', group: 'camera', format: 'text' },
  { ifd: 'exif', tag: 0xa433, key: 'LensMake', group: 'camera', format: 'text' },
  { ifd: 'exif', tag: 0xa434, key: 'LensModel', group: 'camera', format: 'text' },
  { ifd: 'exif', tag: 0xa435, key: 'LensSerialNumber', group: 'camera', format: 'text' },
  { ifd: 'exif', tag: 0x9003, key: 'DateTimeOriginal', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x9004, key: 'CreateDate', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x9011, key: 'OffsetTimeOriginal', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x829a, key: 'ExposureTime', group: 'capture', format: 'exposure' },
  { ifd: 'exif', tag: 0x829d, key: 'FNumber', group: 'capture', format: 'fnumber' },
  { ifd: 'exif', tag: 0x8827, key: 'ISO', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x920a, key: 'FocalLength', group: 'capture', format: 'focal' },
  { ifd: 'exif', tag: 0xa405, key: 'FocalLengthIn35mmFormat', group: 'capture', format: 'focal35' },
  { ifd: 'exif', tag: 0x8822, key: 'ExposureProgram', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x9204, key: 'ExposureCompensation', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x9207, key: 'MeteringMode', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0x9209, key: 'Flash', group: 'capture', format: 'text' },
  { ifd: 'exif', tag: 0xa403, key: 'WhiteBalance', group: 'capture', format: 'text' },
  { ifd: 'ifd0', tag: 0x0112, key: 'Orientation', group: 'image', format: 'text' },
  { ifd: 'ifd0', tag: 0x011a, key: 'XResolution', group: 'image', format: 'text' },
  { ifd: 'ifd0', tag: 0x011b, key: 'YResolution', group: 'image', format: 'text' },
  { ifd: 'ifd0', tag: 0x0128, key: 'ResolutionUnit', group: 'image', format: 'text' },
  { ifd: 'exif', tag: 0xa001, key: 'ColorSpace', group: 'image', format: 'colorSpace' },
  { ifd: 'ifd0', tag: 0x0131, key: 'Software', group: 'software', format: 'text' },
  { ifd: 'ifd0', tag: 0x0132, key: 'ModifyDate', group: 'software', format: 'text' },
  { ifd: 'ifd0', tag: 0x013c, key: 'HostComputer', group: 'software', format: 'text' },
  { ifd: 'ifd0', tag: 0x013b, key: 'Artist', group: 'author', format: 'text' },
  { ifd: 'ifd0', tag: 0x8298, key: 'Copyright', group: 'author', format: 'text' },
  { ifd: 'ifd0', tag: 0x010e, key: 'ImageDescription', group: 'author', format: 'text' },
  { ifd: 'exif', tag: 0xa430, key: 'OwnerName', group: 'author', format: 'text' },
];

/** GPS entries that make up GPSPosition (refs and values) and GPSAltitude. */
export const GPS_LATITUDE_REF = 0x0001;
export const GPS_LATITUDE = 0x0002;
export const GPS_LONGITUDE_REF = 0x0003;
export const GPS_LONGITUDE = 0x0004;
export const GPS_ALTITUDE_REF = 0x0005;
export const GPS_ALTITUDE = 0x0006;
