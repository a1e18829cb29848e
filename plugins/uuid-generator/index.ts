import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { decodeId } from './decode.js';
import { generateIds } from './generate.js';

const closed = { additionalProperties: false } as const;

export default definePlugin({
  group: 'uuid-generator',
  sdk: '^1.0.0',
  summary: 'Generate v4 and v7 UUIDs and ULIDs; decode any UUID or ULID',
  title: 'UUID generator',
  category: 'Developer',
  keywords: ['uuid', 'guid', 'ulid', 'v4', 'v7', 'unique id'],
  errors: {
    invalid_id:
      'The id is neither a UUID (32 hex digits, optionally hyphenated 8-4-4-4-12, in braces or after urn:uuid:) nor a ULID (26 Crockford Base32 characters whose timestamp fits 48 bits)',
  },
  operations: {
    generate: defineOperation({
      summary: 'Generate UUIDs (v4 random, v7 time-ordered) or ULIDs',
      io: { output: 'ids' },
      deterministic: false, // random and time-based ids
      errors: [],
      description:
        'v4 comes from `crypto.randomUUID`. v7 (RFC 9562) carries the clock in milliseconds and a 12-bit counter in ' +
        'rand_a (RFC 9562 §6.2 method 1), so the ids of one response are strictly increasing even within one millisecond. ' +
        'ULIDs come from a monotonic factory and are strictly increasing too. `uppercase` applies to every type (ULIDs are ' +
        'lowercase without it); `hyphens` and `braces` apply to UUIDs only.',
      body: Type.Object(
        {
          type: Type.Union([Type.Literal('v4'), Type.Literal('v7'), Type.Literal('ulid')], {
            default: 'v4',
            description: 'v4 random, v7 time-ordered, ulid time-ordered Crockford Base32',
          }),
          count: Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'How many ids' }),
          uppercase: Type.Boolean({ default: false, description: 'Upper-case letters (all types)' }),
          hyphens: Type.Boolean({ default: true, description: 'Hyphenate 8-4-4-4-12 (UUIDs only)' }),
          braces: Type.Boolean({ default: false, description: 'Wrap in { } (UUIDs only)' }),
        },
        closed,
      ),
      response: Type.Object({ ids: Type.Array(Type.String()) }, closed),
      examples: [
        {
          title: 'Two time-ordered UUIDs (random; one possible answer)',
          body: { type: 'v7', count: 2 },
          response: { ids: ['019ab4f2-6a10-7a3c-8e21-5d0c9f7b2a41', '019ab4f2-6a10-7a3d-b4f0-0c6e18d2e9a7'] },
          exact: false,
        },
        {
          title: 'A ULID, upper-case (random; one possible answer)',
          body: { type: 'ulid', uppercase: true },
          response: { ids: ['01KAJZ4T8GQ7N3V5W2XHY6C9DE'] },
          exact: false,
        },
        {
          title: 'A v4 UUID, upper-case in braces without hyphens (random; one possible answer)',
          body: { uppercase: true, hyphens: false, braces: true },
          response: { ids: ['{919108F752D143209BACF847DB4148A8}'] },
          exact: false,
        },
      ],
      handler: ({ type, count, uppercase, hyphens, braces }, context) => ({
        ids: generateIds(type, count, context.now().getTime(), { uppercase, hyphens, braces }),
      }),
    }),
    decode: defineOperation({
      summary: 'Decode a UUID or ULID: normalized form, version, variant, timestamp',
      io: { input: 'id', output: 'normalized' },
      recognizers: [
        { kind: 'uuid', title: 'UUID', pattern: /^(?:urn:uuid:)?\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i, confidence: 0.95 },
        { kind: 'uuid', title: 'UUID (no hyphens)', pattern: /^[0-9a-f]{12}[1-8][0-9a-f]{3}[89ab][0-9a-f]{15}$/i, confidence: 0.55 },
        { kind: 'ulid', title: 'ULID', pattern: /^(?=.*[G-Zg-z])[0-7][0-9A-HJKMNP-TV-Z]{25}$/i, confidence: 0.9 },
      ],
      errors: ['invalid_id'],
      description:
        'Accepts a UUID with or without hyphens, in braces or after `urn:uuid:`, any case; or a ULID. `version` is the ' +
        'four version bits and `variant` the RFC 9562 variant, for every UUID (nil: 0 and NCS; max: 15 and reserved). ' +
        '`timestamp` (ISO 8601, millisecond precision, rounded down) is given for RFC 9562 versions 1, 6 and 7 and for ULIDs. ' +
        'A ULID has no version or variant.',
      body: Type.Object({ id: Type.String({ description: 'A UUID of any version, or a ULID' }) }, closed),
      response: Type.Object(
        {
          kind: Type.Union([Type.Literal('uuid'), Type.Literal('ulid')]),
          normalized: Type.String({ description: 'UUID: lowercase 8-4-4-4-12; ULID: upper-case' }),
          version: Type.Optional(Type.Integer({ minimum: 0, maximum: 15, description: 'UUIDs only: the version bits' })),
          variant: Type.Optional(
            Type.Union([Type.Literal('NCS'), Type.Literal('RFC 9562'), Type.Literal('Microsoft'), Type.Literal('reserved')], {
              description: 'UUIDs only',
            }),
          ),
          timestamp: Type.Optional(Type.String({ description: 'ISO 8601 time of a v1, v6 or v7 UUID or of a ULID' })),
        },
        closed,
      ),
      examples: [
        {
          title: 'The UUIDv7 test vector of RFC 9562 (appendix A.6)',
          body: { id: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
          response: {
            kind: 'uuid',
            normalized: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
            version: 7,
            variant: 'RFC 9562',
            timestamp: '2022-02-22T19:22:22.000Z',
          },
        },
        {
          title: 'The UUIDv1 test vector of RFC 9562 (appendix A.1) as a URN',
          body: { id: 'urn:uuid:c232ab00-9414-11ec-b3c8-9f6bdeced846' },
          response: {
            kind: 'uuid',
            normalized: 'c232ab00-9414-11ec-b3c8-9f6bdeced846',
            version: 1,
            variant: 'RFC 9562',
            timestamp: '2022-02-22T19:22:22.000Z',
          },
        },
        {
          title: 'A lower-case ULID (the example of the ulid package: time 1469918176385 ms)',
          body: { id: '01aryz6s41tsv4rrffq69g5fav' },
          response: { kind: 'ulid', normalized: '01ARYZ6S41TSV4RRFFQ69G5FAV', timestamp: '2016-07-30T22:36:16.385Z' },
        },
      ],
      handler: ({ id }) => decodeId(id),
    }),
  },
});
