import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { MAX_HOST_LENGTH, MAX_PARAMS, MAX_URL_LENGTH, PART_KEYS, parseUrl } from './parse-url.js';
import { percentDecode, percentEncode } from './percent.js';

const closed = { additionalProperties: false } as const;

const Entry = Type.Object({ key: Type.String(), value: Type.String() }, closed);
const PartEntry = Type.Object(
  { key: Type.Enum(PART_KEYS), value: Type.String() },
  closed,
);

export default definePlugin({
  group: 'url-encoder',
  sdk: '^1.0.0',
  summary: 'Percent-encoding and decoding of UTF-8 text, and WHATWG URL parsing',
  title: 'URL encoder',
  category: 'Encoding',
  keywords: ['percent-encoding', 'urlencode', 'uri', 'query string', 'parse url'],
  errors: {
    invalid_text: 'The text contains a lone UTF-16 surrogate, which has no UTF-8 encoding',
    invalid_encoding: 'A "%" is not followed by two hex digits, or the escapes are not valid UTF-8',
    invalid_url: 'The text is not an absolute URL under the WHATWG URL Standard',
    url_too_long: `The URL is longer than ${MAX_URL_LENGTH} characters (Chromium's limit)`,
    host_too_long: `The host of an http(s), ws(s), ftp or file URL is longer than ${MAX_HOST_LENGTH} characters`,
    output_too_large: `The query has more than ${MAX_PARAMS} parameters`,
  },
  operations: {
    encode: defineOperation({
      summary: 'Percent-encode text as UTF-8',
      io: { input: 'text', output: 'encoded' },
      errors: ['invalid_text'],
      description:
        '`component` escapes like `encodeURIComponent` (also `& = ? /`); `full` like `encodeURI`, keeping ' +
        '`; , / ? : @ & = + $ #`. With `spaceAsPlus`, spaces become `+` and a literal `+` becomes `%2B`.',
      body: Type.Object(
        {
          text: Type.String({ description: 'Text, encoded as UTF-8 before escaping' }),
          scope: Type.Union([Type.Literal('component'), Type.Literal('full')], {
            default: 'component',
            description: '`component` for one query value or path segment, `full` for a whole URL',
          }),
          spaceAsPlus: Type.Boolean({ default: false, description: 'Write spaces as `+` (HTML form encoding)' }),
        },
        closed,
      ),
      response: Type.Object({ encoded: Type.String() }, closed),
      examples: [
        { title: 'One query value', body: { text: 'a b&c=d/é' }, response: { encoded: 'a%20b%26c%3Dd%2F%C3%A9' } },
        {
          title: 'A whole URL, spaces as +',
          body: { text: 'https://example.com/a b?q=1+1', scope: 'full', spaceAsPlus: true },
          response: { encoded: 'https://example.com/a+b?q=1%2B1' },
        },
      ],
      handler: ({ text, scope, spaceAsPlus }) => ({ encoded: percentEncode(text, scope, spaceAsPlus) }),
    }),
    decode: defineOperation({
      summary: 'Decode percent-escapes as UTF-8',
      io: { input: 'text', output: 'decoded' },
      recognizers: [
        { kind: 'percent-encoding', title: 'Percent-encoded text', pattern: /^(?![a-z][a-z0-9+.-]*:\/\/)[^\s%]*%[0-9A-Fa-f]{2}\S*$/i, confidence: 0.85 },
      ],
      errors: ['invalid_encoding'],
      body: Type.Object(
        {
          text: Type.String({ description: 'Percent-encoded text' }),
          plusAsSpace: Type.Boolean({ default: false, description: 'Read `+` as a space first (HTML form encoding)' }),
        },
        closed,
      ),
      response: Type.Object({ decoded: Type.String() }, closed),
      examples: [
        { title: 'UTF-8 escapes', body: { text: 'caf%C3%A9%20%26%20cr%C3%A8me' }, response: { decoded: 'café & crème' } },
        { title: 'Form encoding', body: { text: 'a+b%2Bc', plusAsSpace: true }, response: { decoded: 'a b+c' } },
      ],
      handler: ({ text, plusAsSpace }) => ({ decoded: percentDecode(text, plusAsSpace) }),
    }),
    parse: defineOperation({
      summary: 'Split an absolute URL into its parts and query parameters',
      io: { input: 'url', output: 'params' },
      recognizers: [
        { kind: 'url', title: 'URL', pattern: /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/i, confidence: 0.9 },
        // A host name with a path or query but no scheme, as people copy it: read as https, as a browser does.
        { kind: 'url', title: 'URL without a scheme (read as https)', pattern: /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d{1,5})?[/?#]\S*$/i, confidence: 0.6, fill: { url: 'https://$&' } },
      ],
      errors: ['invalid_url', 'url_too_long', 'host_too_long', 'output_too_large'],
      description:
        'WHATWG URL parsing; nothing is fetched. `parts` come in the order protocol, username, password, host, ' +
        'hostname, port, origin, path, query, fragment, each only when non-empty, as the URL serialises them. ' +
        '`params` are the query parameters in order, decoded, duplicates kept. URLs up to 2 MiB, hosts up to ' +
        `${MAX_HOST_LENGTH} characters, queries up to ${MAX_PARAMS} parameters.`,
      body: Type.Object({ url: Type.String({ description: 'An absolute URL including the scheme' }) }, closed),
      response: Type.Object({ parts: Type.Array(PartEntry), params: Type.Array(Entry) }, closed),
      examples: [
        {
          title: 'Every part',
          body: { url: 'https://user:pw@example.com:8080/a/b?x=1&y=%C3%A9&x=2#top' },
          response: {
            parts: [
              { key: 'protocol', value: 'https' },
              { key: 'username', value: 'user' },
              { key: 'password', value: 'pw' },
              { key: 'host', value: 'example.com:8080' },
              { key: 'hostname', value: 'example.com' },
              { key: 'port', value: '8080' },
              { key: 'origin', value: 'https://example.com:8080' },
              { key: 'path', value: '/a/b' },
              { key: 'query', value: 'x=1&y=%C3%A9&x=2' },
              { key: 'fragment', value: 'top' },
            ],
            params: [
              { key: 'x', value: '1' },
              { key: 'y', value: 'é' },
              { key: 'x', value: '2' },
            ],
          },
        },
      ],
      handler: ({ url }) => parseUrl(url),
    }),
  },
});
