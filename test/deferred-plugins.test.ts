// The built-ins are served from the manifest data their build wrote, and each module is imported
// when it is first needed (kernel/host/deferred-plugin.ts): a start imports none of them, a call
// imports its own group only, and a built-in with a warm() is imported and warmed after the start.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

const services: InProcessService[] = [];
after(() => Promise.all(services.map((service) => service.stop())));

describe('built-in plugins imported on first use', () => {
  it('starts without importing a built-in, imports a group on its first call only, and word-counter, which warms, after the start', async () => {
    const service = await buildTestService({}, { builtinDir: builtinPluginDir });
    services.push(service);
    const { deferred } = service.registry;
    const groups = readdirSync(builtinPluginDir).filter((name) => !name.includes('.'));
    assert.deepEqual([...deferred.keys()].sort(), groups.sort(), 'every built-in is read from its manifest data');
    const loaded = (): string[] => [...deferred.values()].filter((module) => module.loaded).map((module) => module.group);
    await service.warmedUp;
    assert.deepEqual(loaded(), ['word-counter'], 'only the built-in with a warm() is imported after the start');
    const encoded = await send(service.url, '/v1/base64/encode', { body: { text: 'foobar' } });
    assert.deepEqual(encoded.json, { base64: 'Zm9vYmFy' });
    assert.deepEqual(loaded().sort(), ['base64', 'word-counter']);
    // What the service says of a group it has not imported comes from the data: its OpenAPI paths.
    const document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, unknown> };
    assert.ok('/v1/sql-formatter/format' in document.paths);
    assert.deepEqual(loaded().sort(), ['base64', 'word-counter']);
  });
});
