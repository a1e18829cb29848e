/** The recipe examples the HTTP, MCP and command-line tests share (issue 40, docs/recipes.md). */

/** docs/recipes.md's input: the JWT below, Base64-encoded, then percent-encoded (`=` → `%3D`). */
export const JWT_LAYERS = 'ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlJc0ltVjRjQ0k2TVRjd01EQXdNREF3TUgwLmMybG4%3D';
/** The same, one layer in: Base64 of `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0.c2ln`. */
export const JWT_BASE64 = 'ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlJc0ltVjRjQ0k2TVRjd01EQXdNREF3TUgwLmMybG4=';
/** Its decoding: header {"alg":"HS256"}, payload {"sub":"42","exp":1700000000}; 1700000000 s is 2023-11-14T22:13:20Z, long past. */
export const JWT_ANSWER = { header: { alg: 'HS256' }, payload: { sub: '42', exp: 1700000000 }, status: 'expired', times: { exp: '2023-11-14T22:13:20.000Z' } };
/** The saved recipe of the issue. */
export const SAVED = { 'jwt-in-base64': { summary: 'Decode a JWT wrapped in Base64', steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] } };

/** The JWT inside JWT_BASE64, as text. */
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0.c2ln';
const JWT_HEX = Buffer.from(JWT).toString('hex');
const AUTO = { from: 'auto', to: 'json' };

/** An identify example of issue 46 and the first candidate it must answer (kind, steps, preview). */
export interface IdentifyExample {
  readonly name: string;
  readonly input: string;
  readonly best: { readonly kind: string; readonly recipe: { readonly steps: readonly unknown[] }; readonly preview: unknown };
}

/**
 * Issue 46's examples that identify missed. The previews are worked out by hand: the CSV's rows
 * under its header (cells stay strings), the YAML's mapping, the /32 of the address, the text under
 * two Base64 layers, and the JWT under its hex.
 */
export const ISSUE_46_EXAMPLES: readonly IdentifyExample[] = [
  {
    name: 'CSV with semicolons',
    input: 'city;country;people\nLyon;FR;522000\nGhent;BE;265000\n',
    best: {
      kind: 'csv',
      recipe: { steps: [{ operation: 'data-converter/convert', body: AUTO }] },
      preview: { output: JSON.stringify([{ city: 'Lyon', country: 'FR', people: '522000' }, { city: 'Ghent', country: 'BE', people: '265000' }], null, 2), from: 'csv' },
    },
  },
  {
    name: 'two lines of YAML',
    input: 'service: toolshed\nport: 8080\n',
    best: { kind: 'yaml', recipe: { steps: [{ operation: 'data-converter/convert', body: AUTO }] }, preview: { output: '{\n  "service": "toolshed",\n  "port": 8080\n}', from: 'yaml' } },
  },
  {
    name: 'a bare IPv4 address',
    input: '192.168.1.77',
    best: {
      kind: 'ipv4',
      recipe: { steps: [{ operation: 'subnet-calculator/calculate', body: { address: '192.168.1.77/32' } }] },
      preview: {
        cidr: '192.168.1.77/32',
        network: '192.168.1.77',
        broadcast: '192.168.1.77',
        netmask: '255.255.255.255',
        wildcard: '0.0.0.0',
        firstHost: '192.168.1.77',
        lastHost: '192.168.1.77',
        total: 1,
        usable: 1,
        address: '192.168.1.77',
        type: 'private',
        class: 'C',
        binary: { address: '11000000.10101000.00000001.01001101', netmask: '11111111.11111111.11111111.11111111' },
        reverseDns: '77.1.168.192.in-addr.arpa',
      },
    },
  },
  {
    name: 'Base64 of Base64',
    // Base64 of "SGVsbG8sIFdvcmxkIQ==", itself Base64 of "Hello, World!".
    input: 'U0dWc2JHOHNJRmR2Y214a0lRPT0=',
    best: { kind: 'base64', recipe: { steps: [{ operation: 'base64/decode' }, { operation: 'base64/decode' }] }, preview: { text: 'Hello, World!' } },
  },
  {
    name: '0x and the hex of a JWT',
    input: `0x${JWT_HEX}`,
    best: {
      kind: 'hex-bytes',
      recipe: { steps: [{ operation: 'text-converter/decode', body: { format: 'hex', bytes: JWT_HEX } }, { operation: 'jwt-decoder/decode' }] },
      preview: JWT_ANSWER,
    },
  },
];
