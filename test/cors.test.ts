// CORS over real HTTP (issue 41): preflights allow Authorization, and cors.origins narrows the
// origins whose pages may read the answers (any by default).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { send } from './support/http.js';
import { inProcessStarter } from './support/service.js';

const start = inProcessStarter();

const echo = '/v1/kernel-probe/echo';
const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
});

describe('CORS', () => {
  it('answers preflights allowing Authorization and Content-Type, and any origin by default', async () => {
    const service = await start({});
    const answer = await send(service.url, echo, preflight('https://app.example.com'));
    assert.equal(answer.status, 204);
    const allowed = String(answer.headers['access-control-allow-headers']).split(/,\s*/).map((name) => name.toLowerCase());
    assert.ok(allowed.includes('authorization') && allowed.includes('content-type'), allowed.join());
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    const ordinary = await send(service.url, echo, { body: { text: 'x' }, headers: { Origin: 'https://app.example.com' } });
    assert.equal(ordinary.headers['access-control-allow-origin'], '*');
  });

  it('with cors.origins, answers the listed origins by name and leaves others without Allow-Origin', async () => {
    const service = await start({ cors: { origins: ['https://app.example.com', 'http://localhost:5173'] } });
    for (const origin of ['https://app.example.com', 'http://localhost:5173']) {
      const answer = await send(service.url, echo, preflight(origin));
      assert.equal(answer.status, 204);
      assert.equal(answer.headers['access-control-allow-origin'], origin);
      const ordinary = await send(service.url, echo, { body: { text: 'x' }, headers: { Origin: origin } });
      assert.equal(ordinary.status, 200);
      assert.equal(ordinary.headers['access-control-allow-origin'], origin);
      assert.match(String(ordinary.headers.vary), /\bOrigin\b/);
    }
    const stranger = await send(service.url, echo, { body: { text: 'x' }, headers: { Origin: 'https://evil.example' } });
    assert.equal(stranger.headers['access-control-allow-origin'], undefined);
    assert.equal((await send(service.url, echo, preflight('https://evil.example'))).headers['access-control-allow-origin'], undefined);
    // Errors too: the header is settled before anything can refuse the request.
    const refused = await send(service.url, '/v1/no-such/operation', { body: { text: 'x' }, headers: { Origin: 'https://app.example.com' } });
    assert.equal(refused.status, 404);
    assert.equal(refused.headers['access-control-allow-origin'], 'https://app.example.com');
  });

  it('refuses a cors.origins entry that is no origin', async () => {
    await assert.rejects(start({ cors: { origins: ['https://app.example.com/path'] } }), /\/cors\/origins\/0/);
  });
});
