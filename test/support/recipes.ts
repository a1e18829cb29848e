/** The recipe examples the HTTP, MCP and command-line tests share (issue 40, docs/recipes.md). */

/** docs/recipes.md's input: the JWT below, Base64-encoded, then percent-encoded (`=` → `%3D`). */
export const JWT_LAYERS = 'ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlJc0ltVjRjQ0k2TVRjd01EQXdNREF3TUgwLmMybG4%3D';
/** The same, one layer in: Base64 of `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0.c2ln`. */
export const JWT_BASE64 = 'ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlJc0ltVjRjQ0k2TVRjd01EQXdNREF3TUgwLmMybG4=';
/** Its decoding: header {"alg":"HS256"}, payload {"sub":"42","exp":1700000000}; 1700000000 s is 2023-11-14T22:13:20Z, long past. */
export const JWT_ANSWER = { header: { alg: 'HS256' }, payload: { sub: '42', exp: 1700000000 }, status: 'expired', times: { exp: '2023-11-14T22:13:20.000Z' } };
/** The saved recipe of the issue. */
export const SAVED = { 'jwt-in-base64': { summary: 'Decode a JWT wrapped in Base64', steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] } };
