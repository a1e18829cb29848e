// A typed client as an adopter would build one: types generated from the live /v1/openapi.json with
// openapi-typescript, calls made with openapi-fetch. The generated types are committed and checked
// by `tsc -b`, so a wrong field below is a compile error, not a runtime surprise.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import createClient from 'openapi-fetch';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { fetchInProcess } from './support/inject.js';
import { buildTestService, type InProcessService } from './support/service.js';
import type { paths } from './typed-client/api-types.js';
import { apiTypesFile, apiTypesOf } from './typed-client/api-types-source.js';

let service: InProcessService;
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

describe('a typed client generated from /v1/openapi.json', () => {
  it('has committed types equal to what openapi-typescript makes of the live document (run `npm run docs`)', async () => {
    const live = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json;
    assert.ok((await readFile(apiTypesFile, 'utf8')) === (await apiTypesOf(live)), 'test/typed-client/api-types.ts is stale: run `npm run docs`');
  });

  it('calls three operations with typed bodies and typed answers', async () => {
    const client = createClient<paths>({ baseUrl: service.url, fetch: fetchInProcess });
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy".
    const encoded = await client.POST('/v1/base64/encode', { body: { text: 'foobar' } });
    assert.equal(encoded.data?.base64, 'Zm9vYmFy');
    // FIPS 180-2 appendix B.1: SHA-256("abc").
    const hashed = await client.POST('/v1/hash-generator/hash', { body: { text: 'abc', algorithms: ['SHA-256'] } });
    assert.equal(hashed.data?.hashes['SHA-256'], 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // 255 = 0xff = 0o377 = 0b11111111.
    const converted = await client.POST('/v1/number-base-converter/convert', { body: { value: '255', to: [2, 8, 16] } });
    assert.deepEqual(converted.data?.results, { '2': '11111111', '8': '377', '16': 'ff' });
  });

  it('turns a wrong field into a compile error, and the service refuses it too', async () => {
    const client = createClient<paths>({ baseUrl: service.url, fetch: fetchInProcess });
    // @ts-expect-error -- `txt` is not a field of base64/encode, and `text` is missing.
    const wrong = await client.POST('/v1/base64/encode', { body: { txt: 'foobar' } });
    assert.equal(wrong.response.status, 400);
    assert.equal(wrong.error?.error.code, 'validation_failed');
  });
});
