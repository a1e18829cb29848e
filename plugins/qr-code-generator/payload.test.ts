import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import qrCodeGenerator from './index.js';

const payloadOf = async (content: Record<string, unknown>): Promise<string> =>
  ((await invoke(qrCodeGenerator, 'create', { content })) as { payload: string }).payload;

describe('qr-code-generator payloads', () => {
  it('writes Wi-Fi in ZXing syntax with \\ ; , : " escaped and H only when hidden', async () => {
    assert.equal(
      await payloadOf({ type: 'wifi', ssid: 'My "Net"', password: 'a\\b;c,d:e', hidden: true }),
      'WIFI:T:WPA;S:My \\"Net\\";P:a\\\\b\\;c\\,d\\:e;H:true;;',
    );
    assert.equal(await payloadOf({ type: 'wifi', ssid: 'Home', password: 'secret', security: 'WEP' }), 'WIFI:T:WEP;S:Home;P:secret;;');
  });

  it('leaves P out of an open network and refuses a password with nopass', async () => {
    assert.equal(await payloadOf({ type: 'wifi', ssid: 'Open', security: 'nopass' }), 'WIFI:T:nopass;S:Open;;');
    await rejectsWith(payloadOf({ type: 'wifi', ssid: 'Open', security: 'nopass', password: 'x' }), 400, 'validation_failed', ['/content/password']);
    // A union of forms told apart by `type`: the 400 names the field of the form meant.
    await rejectsField(payloadOf({ type: 'wifi', ssid: '' }), '/content/ssid');
  });

  it('writes a vCard 3.0 with CRLF, N and FN, and only the given fields', async () => {
    const vcard = await payloadOf({
      type: 'contact',
      firstName: 'Ada',
      lastName: 'Lovelace',
      organization: 'Analytical Engines',
      title: 'Programmer',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      website: 'https://example.com/ada',
    });
    assert.equal(
      vcard,
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nORG:Analytical Engines\r\nTITLE:Programmer\r\n' +
        'TEL:+44 20 7946 0000\r\nEMAIL:ada@example.com\r\nURL:https://example.com/ada\r\nEND:VCARD',
    );
    assert.equal(await payloadOf({ type: 'contact', lastName: 'Curie' }), 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Curie;;;;\r\nFN:Curie\r\nEND:VCARD');
  });

  it('derives FN from the organization, else the email or phone, and refuses an empty contact', async () => {
    assert.equal(await payloadOf({ type: 'contact', organization: 'ACME' }), 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:ACME\r\nORG:ACME\r\nEND:VCARD');
    assert.equal(await payloadOf({ type: 'contact', phone: '112' }), 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:112\r\nTEL:112\r\nEND:VCARD');
    // Every field that would do is named; a title alone does not make a contact.
    const fields = ['firstName', 'lastName', 'organization', 'email', 'phone', 'website'].map((name) => `/content/${name}`);
    await rejectsWith(payloadOf({ type: 'contact' }), 400, 'validation_failed', fields);
    await rejectsWith(payloadOf({ type: 'contact', title: 'Boss' }), 400, 'validation_failed', fields);
  });

  it('escapes vCard text as RFC 6350 says: backslash, comma, semicolon, newline', async () => {
    const vcard = await payloadOf({ type: 'contact', lastName: 'Doe; Jr.', firstName: 'A\\B', title: 'Boss, Chief\r\nof staff' });
    assert.equal(vcard, 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe\\; Jr.;A\\\\B;;;\r\nFN:A\\\\B Doe\\; Jr.\r\nTITLE:Boss\\, Chief\\nof staff\r\nEND:VCARD');
  });

  it('writes email as a mailto: URI with subject and body percent-encoded (space %20)', async () => {
    assert.equal(
      await payloadOf({ type: 'email', to: 'info@example.com', subject: 'Hi & bye', body: 'Line 1\nGrüße' }),
      'mailto:info@example.com?subject=Hi%20%26%20bye&body=Line%201%0AGr%C3%BC%C3%9Fe',
    );
    assert.equal(await payloadOf({ type: 'email', to: 'a@example.com,b@example.com' }), 'mailto:a@example.com,b@example.com');
    assert.equal(await payloadOf({ type: 'email', to: 'x@example.com', body: '?' }), 'mailto:x@example.com?body=%3F');
    await rejectsField(payloadOf({ type: 'email', to: '' }), '/content/to');
    await rejectsWith(payloadOf({ type: 'email', to: '   ' }), 400, 'validation_failed', ['/content/to']);
  });

  it('keeps text as given and refuses an unknown type or an extra field', async () => {
    assert.equal(await payloadOf({ type: 'text', text: ' spaced \n text ' }), ' spaced \n text ');
    await rejectsField(payloadOf({ type: 'fax', text: 'x' }), '/content');
    await rejectsField(payloadOf({ type: 'text', text: 'x', ssid: 'y' }), '/content/ssid');
  });

  it('refuses lone surrogates, which have no UTF-8 form, with 422 invalid_text', async () => {
    await rejectsWith(payloadOf({ type: 'email', to: 'a@example.com', subject: 'bad \ud800' }), 422, 'invalid_text');
    await rejectsWith(invoke(qrCodeGenerator, 'text', { text: '\udc00' }), 422, 'invalid_text');
    // A paired surrogate is an ordinary character.
    assert.equal(await payloadOf({ type: 'text', text: '\ud83d\ude42' }), '🙂');
  });
});
