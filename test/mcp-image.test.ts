// Answers that are pictures come back as MCP image content beside the structured answer: the QR
// code's SVG drawn as a PNG that a real decoder reads back as the payload, a PNG sent as Base64
// passed on as it is — each because its response schema says `contentMediaType: image/…`, whatever
// the tool is called — and an SVG that refers to a file never drawn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import jsqr from 'jsqr';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { imageFields, refusedSvg, zoomFor } from '../mcp/image.js';
import { send } from './support/http.js';
import { connectMcpClient } from './support/mcp-client.js';
import { buildTestService, type InProcessService } from './support/service.js';

// jsqr is CommonJS: Node hands its module.exports over as the default import, whose `default` is jsQR.
const jsQR = jsqr.default;
const pictures = fileURLToPath(new URL('../../test/fixtures/picture-plugins/', import.meta.url));

let service: InProcessService;
let client: Client;
before(async () => {
  service = await buildTestService({ plugins: { dirs: [pictures], trusted: ['picture'] } }, { builtinDir: builtinPluginDir });
  client = await connectMcpClient(service.url);
});
after(async () => {
  await client.close();
  await service.stop();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The PNG (as Base64) decoded by resvg and read by jsQR; the code's bytes as UTF-8. */
function scanPng(base64: string): { text: string | undefined; width: number } {
  const image = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><image href="data:image/png;base64,${base64}" width="600" height="600"/></svg>`, { background: '#ffffff' }).render();
  const code = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height);
  const width = Buffer.from(base64, 'base64').readUInt32BE(16);
  return { text: code === null ? undefined : Buffer.from(code.binaryData).toString('utf8'), width };
}

describe('pictures as MCP image content', () => {
  it('answers a QR code with the structured answer, its text, and a PNG a decoder reads as the payload', async () => {
    const args = { content: { type: 'wifi', ssid: 'Café "5G"', password: 'pa:ss;word' } };
    const result = await call('qr-code-generator_create', args);
    const post = await send(service.url, '/v1/qr-code-generator/create', { body: args });
    assert.deepEqual(result.structuredContent, post.json);
    assert.equal(result.content.length, 2);
    assert.deepEqual(result.content[0], { type: 'text', text: post.text });
    const image = result.content[1] as { type: string; mimeType: string; data: string; annotations?: unknown };
    assert.equal(image.type, 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(image.annotations, { audience: ['user'] });
    const { payload } = post.json as { payload: string };
    const scanned = scanPng(image.data);
    assert.equal(scanned.text, payload);
    // A version-3 code at margin 2 is 33 modules: 16 whole pixels each, the first zoom at least 512 wide.
    assert.equal(scanned.width, 33 * 16);
  });

  it('passes a Base64 PNG on as it is, and gives an answer without a picture field only its text', async () => {
    const dot = await call('picture_dot', {});
    assert.deepEqual(dot.content, [
      { type: 'text', text: JSON.stringify(dot.structuredContent) },
      { type: 'image', data: (dot.structuredContent as { png: string }).png, mimeType: 'image/png', annotations: { audience: ['user'] } },
    ]);
    const encoded = await call('base64_encode', { text: 'hi' });
    assert.deepEqual(encoded.content, [{ type: 'text', text: '{"base64":"aGk="}' }]);
  });

  it('never draws an SVG that refers to a file: the answer stands without the picture, and the log says why', async () => {
    const markup = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="${fileURLToPath(new URL('../../package.json', import.meta.url))}" width="10" height="10"/></svg>`;
    const result = await call('picture_svg', { markup });
    assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify({ svg: markup }) }]);
    const warned = service.logs.join('').split('\n').filter((line) => line.includes('picture left out of a tool result'));
    assert.equal(warned.length, 1);
    assert.match(warned[0]!, /"operation":"picture\.svg".*"reason":"svg: it refers to something outside itself"/);
    // A picture of its own is drawn.
    const own = await call('picture_svg', { markup: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#00f"/></svg>' });
    assert.equal((own.content[1] as { mimeType: string }).mimeType, 'image/png');
  });
});

describe('what is a picture', () => {
  it('is read from the response schema: top-level strings of an image media type', () => {
    const schema = {
      type: 'object',
      properties: {
        svg: { type: 'string', contentMediaType: 'image/svg+xml' },
        photo: { type: 'string', contentMediaType: 'image/jpeg', contentEncoding: 'base64' },
        raw: { type: 'string', contentMediaType: 'image/jpeg' },
        tiff: { type: 'string', contentMediaType: 'image/tiff', contentEncoding: 'base64' },
        note: { type: 'string', contentMediaType: 'text/plain' },
        nested: { type: 'object', properties: { svg: { type: 'string', contentMediaType: 'image/svg+xml' } } },
      },
    };
    assert.deepEqual(imageFields(schema), [
      { field: 'svg', form: 'svg', mimeType: 'image/png' },
      { field: 'photo', form: 'base64', mimeType: 'image/jpeg' },
    ]);
  });

  it('is drawn only when it refers to nothing but itself, at whole pixels per unit from 512 to 2048 wide', () => {
    assert.equal(refusedSvg('<svg><defs><linearGradient id="g"/></defs><use href="#a"/><rect fill="url(#g)"/></svg>'), undefined);
    assert.equal(refusedSvg('<svg><image xlink:href="/etc/secret.png"/></svg>'), 'it refers to something outside itself');
    assert.equal(refusedSvg('<svg><feImage href=\'file:///x.png\'/></svg>'), 'it refers to something outside itself');
    assert.equal(refusedSvg('<svg><rect style="fill:url(/x.svg#p)"/></svg>'), 'it refers to something outside itself');
    assert.equal(refusedSvg('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'), 'it declares a DOCTYPE or entities');
    assert.equal(refusedSvg('<!-- a comment --><svg/>'), undefined);
    assert.deepEqual([zoomFor(25, 25), zoomFor(185, 185), zoomFor(600, 300), zoomFor(4096, 100)], [21, 3, 1, 0.5]);
  });
});
