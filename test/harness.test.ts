// The SDK's startTestKernel: the real service with just the given plugins, handed in as the module
// `toolshed/testing` that the test imports itself (here the repository, by its own package name),
// and a client for it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '@toolshed/plugin-sdk/testing';
import * as toolshed from 'toolshed/testing';
import { externalPlugins } from './support/service.js';

const kernels: TestKernel[] = [];
after(() => Promise.all(kernels.map((kernel) => kernel.stop())));

async function start(options: Parameters<typeof startTestKernel>[1]): Promise<TestKernel> {
  const kernel = await startTestKernel(toolshed, options);
  kernels.push(kernel);
  return kernel;
}

describe('startTestKernel', () => {
  it('serves just the plugin given by its module URL, over HTTP, with the service\'s answers', async () => {
    const kernel = await start({ plugins: [pathToFileURL(path.join(externalPlugins, 'greeting', 'index.js'))] });
    assert.match(kernel.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const hello = await kernel.post('greeting/hello', { name: 'Ada' });
    assert.deepEqual([hello.status, hello.body], [200, { greeting: 'Hello, Ada!' }]);
    // The kernel's refusal, with its details, as a client gets it.
    const refused = await kernel.post('greeting/hello', { name: 7 });
    assert.deepEqual([refused.status, refused.body], [400, { error: { code: 'validation_failed', message: 'The request body does not match the schema', details: [{ path: '/name', message: 'must be a string' }] } }]);
    // No built-in plugin: base64 is not there.
    assert.equal((await kernel.post('base64/encode', { text: 'hi' })).status, 404);
    const health = await kernel.request('GET', '/healthz');
    assert.deepEqual([health.status, health.body, health.headers.get('content-type')], [200, { status: 'ok' }, 'application/json; charset=utf-8']);
    assert.ok(kernel.logs().some((line) => line.includes('"msg":"plugin loaded"') && line.includes('"group":"greeting"')));
  });

  it('takes configuration merged over the defaults, and serves the built-in plugins when asked', async () => {
    const kernel = await start({ plugins: [path.join(externalPlugins, 'greeting')], builtins: true, config: { rateLimit: { anonymous: { max: 2 } } } });
    // "hi" in Base64 is "aGk=" (RFC 4648 §4).
    assert.deepEqual((await kernel.post('base64/encode', { text: 'hi' })).body, { base64: 'aGk=' });
    assert.equal((await kernel.post('greeting/hello', { name: 'Ada' })).status, 200);
    // The third request of the window is over the configured limit of 2.
    assert.equal((await kernel.post('greeting/hello', { name: 'Ada' })).status, 429);
  });
});
