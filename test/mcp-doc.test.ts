// Two answers docs/mcp.md quotes, checked against the service (issue 47, items 6 and 7): the body of
// a tool error for arguments that break the schema, and what a notification gets over HTTP. The
// sentences are read from the page, so a page that drifts from the service fails here.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

const page = (await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
let service: InProcessService;

before(async () => {
  service = await buildTestService({ plugins: { enabled: ['base64'] } }, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

/** POSTs one JSON-RPC message to /mcp. */
const rpc = (message: object) => send(service.url, '/mcp', { body: message, headers: { Accept: 'application/json, text/event-stream' } });

describe('docs/mcp.md, as the service answers', () => {
  it('quotes the validation error body a tool call with a wrong type gets', async () => {
    const quoted = /\*\*400\*\* \(arguments that break the schema\): a tool error \(`isError: true`\) whose text is the API's error body, `(\{.*?\})`:/.exec(page)?.[1];
    assert.ok(quoted !== undefined, 'the page quotes the body');
    const expected = JSON.parse(quoted) as { error: { code: string; message: string; details: unknown } };
    const answer = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'base64_encode', arguments: { text: 1 } } });
    const result = (answer.json as { result: { isError: boolean; content: { text: string }[] } }).result;
    assert.equal(result.isError, true);
    const body = JSON.parse(result.content[0]!.text) as { error: { code: string; message: string; details: unknown } };
    // The page leaves the top-level message out ("…"); the code and every detail are as quoted.
    assert.equal(expected.error.message, '…');
    assert.deepEqual({ ...body.error, message: '…' }, expected.error);
  });

  it('says what a notification gets: 202 with the text/plain body Accepted', async () => {
    assert.ok(page.includes('notifications and responses → 202 with the `text/plain` body `Accepted`'), 'the page says it');
    const answer = await rpc({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    assert.equal(answer.status, 202);
    assert.match(answer.headers['content-type'] ?? '', /^text\/plain\b/);
    assert.equal(answer.text, 'Accepted');
  });
});
