// A group that is installed but switched off (plugins.enabled / plugins.disabled) must not look like
// a typo (issue 22): its paths answer 404, as the contract wants for a path the server does not
// serve, with a message saying the group exists and is off; `toolshed call` says the same.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { send } from './support/http.js';
import { externalPlugins, buildTestService, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const bin = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
const off = (group: string) => `The group ${group} exists but is switched off on this server. This server's operations are listed at /v1/openapi.json.`;

let service: InProcessService;
before(async () => {
  service = await buildTestService({ plugins: { disabled: ['greeting'] } });
});
after(() => service.stop());

describe('a disabled group', () => {
  it('answers 404 saying the group is switched off, for its operations, a typo of one, or capitals', async () => {
    for (const target of ['/v1/greeting/hello', '/v1/greeting/helo', '/v1/Greeting/hello', '/greeting/hello/']) {
      const answer = await send(service.url, target, { body: { name: 'Ada' } });
      assert.equal(answer.status, 404, target);
      assert.deepEqual(answer.json, { error: { code: 'not_found', message: off('greeting') } }, target);
    }
  });

  it('leaves the hints for enabled groups and unknown paths as they were', async () => {
    const typo = await send(service.url, '/v1/kernel-probe/ecko', { body: { text: 'x' } });
    assert.deepEqual(typo.json, {
      error: { code: 'not_found', message: 'There is no operation at this path; did you mean POST /v1/kernel-probe/echo? Every operation is listed at /v1/openapi.json.' },
    });
    const unknown = await send(service.url, '/v1/weather/today', { body: {} });
    assert.deepEqual(unknown.json, { error: { code: 'not_found', message: 'There is no operation at this path. Every operation is listed at /v1/openapi.json.' } });
  });

  it('is named as switched off by toolshed call too (exit 2)', async () => {
    const config = path.join(tempFolder('toolshed-disabled-'), 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n  disabled: [greeting]\n`);
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['TOOLSHED_CONFIG', 'PORT', 'HOST'].includes(name)));
    const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'call', 'greeting/hello', '{"name":"Ada"}', '--config', config], { env }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
      );
    });
    assert.equal(outcome.code, 2);
    assert.equal(outcome.stdout, '');
    assert.equal(
      outcome.stderr.split('\n')[0],
      'toolshed: The group greeting exists but is switched off in this configuration (plugins.enabled, plugins.disabled). "toolshed openapi" lists the operations this configuration serves.',
    );
  });
});
