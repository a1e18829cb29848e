// Reference 3: Fastify with JSON-schema validation of the bodies and serialization by response
// schema, as Fastify is meant to be used; its logger off (its default). The body schemas are those
// of Toolshed's two operations for a text body (hash's dataBase64 alternative left out).
import Fastify from 'fastify';
import { announce } from './child-ipc.js';
import { ALGORITHMS, encode, ENCODE_PATH, hash, HASH_PATH, HEALTH_PATH, type EncodeBody, type HashBody } from './reference-work.js';

const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });

app.get(HEALTH_PATH, async () => ({ status: 'ok' }));
app.post<{ Body: EncodeBody }>(
  ENCODE_PATH,
  {
    schema: {
      body: {
        type: 'object',
        required: ['text'],
        additionalProperties: false,
        properties: { text: { type: 'string' }, urlSafe: { type: 'boolean', default: false } },
      },
      response: { 200: { type: 'object', required: ['base64'], additionalProperties: false, properties: { base64: { type: 'string' } } } },
    },
  },
  async (request) => encode(request.body),
);
app.post<{ Body: HashBody }>(
  HASH_PATH,
  {
    schema: {
      body: {
        type: 'object',
        required: ['text'],
        additionalProperties: false,
        properties: {
          text: { type: 'string' },
          algorithms: { type: 'array', items: { enum: [...ALGORITHMS] }, minItems: 1, maxItems: 5, uniqueItems: true, default: [...ALGORITHMS] },
          encoding: { enum: ['hex', 'base64'], default: 'hex' },
          uppercase: { type: 'boolean', default: false },
        },
      },
      response: {
        200: { type: 'object', required: ['hashes'], additionalProperties: false, properties: { hashes: { type: 'object', additionalProperties: { type: 'string' } } } },
      },
    },
  },
  async (request) => hash(request.body),
);

await app.listen({ port: 0, host: '127.0.0.1' });
announce((app.server.address() as { port: number }).port);
