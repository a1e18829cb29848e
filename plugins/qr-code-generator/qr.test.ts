import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import jsqr from 'jsqr';
import { HANG_GUARD_MS, invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import qrCodeGenerator, { INLINE_LIMIT } from './index.js';
import { renderSvg } from './render.js';

// jsqr is CommonJS: Node hands its module.exports over as the default import, whose `default` is jsQR.
const jsQR = jsqr.default;

interface Created {
  payload: string;
  svg: string;
}
const create = async (body: Record<string, unknown>): Promise<Created> => (await invoke(qrCodeGenerator, 'create', body)) as Created;
const textSvg = async (body: Record<string, unknown>): Promise<string> => ((await invoke(qrCodeGenerator, 'text', body)) as { svg: string }).svg;

/** Renders the SVG at 8 px per module over white and decodes it with jsQR; the bytes read as UTF-8. */
function scan(svg: string): string | undefined {
  const image = new Resvg(svg, { fitTo: { mode: 'zoom', value: 8 }, background: '#ffffff' }).render();
  const code = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height);
  return code === null ? undefined : Buffer.from(code.binaryData).toString('utf8');
}

describe('qr-code-generator scanning', () => {
  it('answers every manifest example exactly, and each example scans', async () => {
    for (const example of qrCodeGenerator.operations.create!.examples) {
      const response = example.response as Created;
      assert.deepEqual(await create(example.body), response);
      assert.equal(scan(response.svg), response.payload);
    }
    for (const example of qrCodeGenerator.operations.text!.examples) {
      assert.deepEqual(await invoke(qrCodeGenerator, 'text', example.body), example.response);
      assert.equal(scan((example.response as { svg: string }).svg), example.body.text);
    }
  });

  it('makes codes that a real decoder reads back as the payload, for every type', async () => {
    const contents = [
      { type: 'text', text: 'Grüße, 世界 🙂 — https://example.com/?q=1&r=2' },
      { type: 'wifi', ssid: 'Café "5G"; upstairs', password: 'pa:ss,wo;rd\\', hidden: true },
      { type: 'wifi', ssid: 'Open', security: 'nopass' },
      { type: 'contact', firstName: 'José', lastName: 'Núñez, Jr.', organization: 'ACME; Inc.', phone: '+34 600 000 000', email: 'jose@example.com' },
      { type: 'email', to: 'info@example.com', subject: 'Hello & welcome', body: 'Zeile 1\nZeile 2 – ü' },
    ];
    for (const content of contents) {
      const { payload, svg } = await create({ content });
      assert.equal(scan(svg), payload, content.type);
    }
  });

  it('scans at every error-correction level and with custom and translucent colours', async () => {
    for (const errorCorrection of ['L', 'M', 'Q', 'H']) {
      assert.equal(scan(await textSvg({ text: 'level check', errorCorrection })), 'level check');
    }
    const navy = await textSvg({ text: 'colours', dark: 'Navy', light: 'lightyellow' });
    // qrcode would read "navy" as "#nnaavvyy"; culori turns it into #000080 first.
    assert.match(navy, /stroke="#000080"/);
    assert.match(navy, /fill="#ffffe0"/);
    assert.equal(scan(navy), 'colours');
    const clear = await textSvg({ text: 'no background', light: 'transparent', dark: 'rgb(0 0 0 / 90%)' });
    assert.doesNotMatch(clear, /fill=/);
    assert.match(clear, /stroke="#000000" stroke-opacity="\.90"/);
    assert.equal(scan(clear), 'no background');
  });

  it('draws the quiet zone asked for: margin m adds 2m modules to the 21-module version 1 code', async () => {
    for (const margin of [0, 2, 16]) {
      assert.match(await textSvg({ text: 'v1', margin, errorCorrection: 'L' }), new RegExp(`viewBox="0 0 ${21 + 2 * margin} ${21 + 2 * margin}"`));
    }
    await rejectsField(textSvg({ text: 'x', margin: 17 }), '/margin');
    await rejectsField(textSvg({ text: 'x', margin: 1.5 }), '/margin');
  });

  it('answers 400 on /dark or /light for a colour culori cannot read', async () => {
    await rejectsWith(textSvg({ text: 'x', dark: 'blackish' }), 400, 'validation_failed', ['/dark']);
    await rejectsWith(create({ content: { type: 'text', text: 'x' }, dark: '#12', light: 'nope' }), 400, 'validation_failed', ['/dark', '/light']);
    // The colour is checked before the payload: a 400 comes before a 422.
    await rejectsWith(textSvg({ text: 'a'.repeat(9000), light: 'nope' }), 400, 'validation_failed', ['/light']);
    await rejectsField(textSvg({ text: '' }), '/text');
    await rejectsField(textSvg({ text: 'x', errorCorrection: 'X' }), '/errorCorrection');
  });
});

describe('qr-code-generator capacity', () => {
  it('draws long payloads in the worker pool with the same answer as inline', async () => {
    const long = 'worker '.repeat(100);
    assert.ok(long.length > INLINE_LIMIT);
    const inline = await renderSvg(long, { errorCorrection: 'M', margin: 2, dark: '#000000', light: '#ffffff' });
    assert.equal(await textSvg({ text: long }), inline);
    assert.equal(scan(inline), long);
  });

  // Version 40 byte-mode capacity (ISO/IEC 18004 table 7): L 2953 bytes, H 1273 bytes; numeric at L: 7089 digits.
  it('fits 2953 bytes at L and refuses 2954 with 422 data_too_long', async () => {
    const full = await textSvg({ text: 'a'.repeat(2953), errorCorrection: 'L' });
    assert.match(full, /viewBox="0 0 181 181"/); // version 40: 177 modules + 2 × 2 margin
    await rejectsWith(textSvg({ text: 'a'.repeat(2954), errorCorrection: 'L' }), 422, 'data_too_long');
    // UTF-8 counts: "€" is 3 bytes, 984 × 3 = 2952 fits, 985 × 3 = 2955 does not.
    await textSvg({ text: '€'.repeat(984), errorCorrection: 'L' });
    await rejectsWith(textSvg({ text: '€'.repeat(985), errorCorrection: 'L' }), 422, 'data_too_long');
  });

  it('fits 1273 bytes at H and refuses 1274', async () => {
    await textSvg({ text: 'a'.repeat(1273), errorCorrection: 'H' });
    await rejectsWith(textSvg({ text: 'a'.repeat(1274), errorCorrection: 'H' }), 422, 'data_too_long');
    await rejectsWith(create({ content: { type: 'email', to: 'a@example.com', body: 'x'.repeat(1300) }, errorCorrection: 'H' }), 422, 'data_too_long');
  });

  it('fits 7089 digits at L, and refuses longer or huge texts at once', async () => {
    await textSvg({ text: '1'.repeat(7089), errorCorrection: 'L' });
    await rejectsWith(textSvg({ text: '1'.repeat(7090), errorCorrection: 'L' }), 422, 'data_too_long');
    const started = performance.now();
    await rejectsWith(textSvg({ text: '1a'.repeat(5 * 1024 * 1024) }), 422, 'data_too_long');
    await rejectsWith(textSvg({ text: '1A'.repeat(3544), errorCorrection: 'L' }), 422, 'data_too_long');
    const huge = 'x;,\\'.repeat(1024 * 1024);
    await rejectsWith(create({ content: { type: 'contact', firstName: huge, title: huge } }), 422, 'data_too_long');
    await rejectsWith(create({ content: { type: 'email', to: 'a@example.com', body: huge } }), 422, 'data_too_long');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
