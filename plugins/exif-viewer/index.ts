import { definePlugin, defineOperation, Type, UnprocessableError, workerRefusal, type OperationContext } from '@toolshed/plugin-sdk';
import { EXAMPLE_PNG, EXAMPLE_READ, EXAMPLE_STRIPPED } from './examples.data.js';
import { processImage, type ReadAnswer, type StripAnswer } from './image.js';
import { MAX_ENTRIES, MAX_TEXT_CHARS } from './image-file.js';
import { GROUP_ORDER } from './tags.data.js';

const closed = { additionalProperties: false } as const;

/**
 * Base64 bodies up to this many characters (about 192 KB of image) are handled on the main thread,
 * where they take well under a millisecond; larger ones go to the SDK's worker pool.
 */
export const WORKER_THRESHOLD = 256 * 1024;
/** Time budget of one image in the worker pool, queue time included. The walk is linear: ~7.5 MB takes tens of ms. */
export const DEADLINE_MS = 5000;

const imageModule = new URL('./image.js', import.meta.url);

async function run(operation: 'read' | 'strip', dataBase64: string, context: OperationContext): Promise<ReadAnswer | StripAnswer> {
  if (dataBase64.length <= WORKER_THRESHOLD) return processImage(operation, dataBase64);
  try {
    return await context.runInWorker<ReadAnswer | StripAnswer>(imageModule, 'processImage', [operation, dataBase64], {
      deadlineMs: DEADLINE_MS,
      signal: context.signal,
    });
  } catch (error) {
    throw imageRefusal(error);
  }
}

/** What a failed worker job becomes: timeout, abort and crash are 422s; anything else is a bug (500). */
export function imageRefusal(error: unknown): unknown {
  return workerRefusal(error, {
    timeout: () => new UnprocessableError('image_too_complex', `The image was not processed within ${DEADLINE_MS} ms`),
    crashed: () => new UnprocessableError('image_too_complex', 'The image needed more memory than a request may use'),
  });
}

// contentEncoding and contentMediaType (JSON Schema annotations) tell clients, the tool pages among
// them, that these strings are files: a file picker for the body, a download for the answer.
const imageFile = { contentEncoding: 'base64', contentMediaType: 'image/*' } as const;
const Body = Type.Object(
  { dataBase64: Type.String({ minLength: 1, ...imageFile, description: 'A JPEG, PNG or WebP file as Base64 (either alphabet; a data: URL prefix is accepted)' }) },
  closed,
);
const Format = Type.Enum(['jpeg', 'png', 'webp']);
const ImageTag = Type.Object({ key: Type.String(), group: Type.Enum([...GROUP_ORDER]), value: Type.String() }, closed);
const TextEntry = Type.Object({ key: Type.String(), value: Type.String() }, closed);

export default definePlugin({
  group: 'exif-viewer',
  sdk: '^1.0.0',
  summary: 'Read and remove image metadata (EXIF, XMP, IPTC, comments, PNG texts) of JPEG, PNG and WebP files',
  title: 'EXIF viewer',
  category: 'Images and colour',
  keywords: ['metadata', 'photo', 'jpeg', 'png', 'webp', 'gps', 'xmp', 'iptc'],
  errors: {
    invalid_base64: 'dataBase64 is not valid Base64',
    unsupported_format: 'The file is not a JPEG, PNG or WebP image (for example GIF or text)',
    invalid_image: 'The JPEG, PNG or WebP file is malformed or cut short (bad marker or chunk length, wrong PNG CRC, no image data)',
    image_too_complex: `The image was not processed within ${DEADLINE_MS} ms or needed more memory than a request may use`,
  },
  operations: {
    read: defineOperation({
      summary: 'List the metadata of an image',
      io: { input: 'dataBase64', output: 'tags' },
      // The Base64 of each format's first bytes (FF D8 FF, 89 PNG, RIFF); the reader confirms the rest.
      recognizers: [
        { kind: 'base64', title: 'Base64 (JPEG image)', pattern: /^\/9j\//, confidence: 0.9 },
        { kind: 'base64', title: 'Base64 (PNG image)', pattern: /^iVBORw0KGgo/, confidence: 0.9 },
        { kind: 'base64', title: 'Base64 (WebP image)', pattern: /^UklGR/, confidence: 0.85 },
      ],
      errors: ['invalid_base64', 'unsupported_format', 'invalid_image', 'image_too_complex'],
      description:
        'EXIF tags exifr decodes, grouped (camera, capture, location, image, software, author), with dates as written in the file; ' +
        `the count of further EXIF entries; XMP, IPTC and thumbnail presence; JPEG comments and PNG texts (at most ${MAX_ENTRIES} each, values cut to ${MAX_TEXT_CHARS} characters); ` +
        'and the names of other removable blocks. ImageWidth and ImageHeight come from the image header; hasMetadata is false when nothing but the orientation is there.',
      body: Body,
      response: Type.Object(
        {
          format: Format,
          hasMetadata: Type.Boolean(),
          gps: Type.Union([Type.Object({ lat: Type.Number(), lon: Type.Number() }, closed), Type.Null()]),
          tags: Type.Array(ImageTag),
          otherTags: Type.Integer({ minimum: 0 }),
          thumbnail: Type.Boolean(),
          xmp: Type.Boolean(),
          iptc: Type.Boolean(),
          comments: Type.Array(Type.String()),
          texts: Type.Array(TextEntry),
          other: Type.Array(Type.String()),
        },
        closed,
      ),
      examples: [{ title: 'A 1×1 PNG with camera, date, GPS and a title', body: { dataBase64: EXAMPLE_PNG }, response: EXAMPLE_READ }],
      handler: ({ dataBase64 }, context) => run('read', dataBase64, context) as Promise<ReadAnswer>,
    }),
    strip: defineOperation({
      summary: 'Remove the metadata of an image, keeping the image data and the orientation',
      io: { input: 'dataBase64', output: 'dataBase64' },
      errors: ['invalid_base64', 'unsupported_format', 'invalid_image', 'image_too_complex'],
      description:
        'Rewrites JPEG segments, PNG chunks or WebP chunks: image data is copied byte for byte, metadata blocks are dropped, and an orientation other than 1 is kept in a minimal EXIF block.',
      body: Body,
      response: Type.Object(
        { dataBase64: Type.String({ ...imageFile, description: 'The image without its metadata, as Base64' }), format: Format, bytesBefore: Type.Integer({ minimum: 0 }), bytesAfter: Type.Integer({ minimum: 0 }) },
        closed,
      ),
      examples: [{ title: 'The same PNG without its metadata', body: { dataBase64: EXAMPLE_PNG }, response: EXAMPLE_STRIPPED }],
      handler: ({ dataBase64 }, context) => run('strip', dataBase64, context) as Promise<StripAnswer>,
    }),
  },
});
