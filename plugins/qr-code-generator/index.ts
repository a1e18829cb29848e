import {
  definePlugin,
  defineOperation,
  workerRefusal,
  ServerBusyError,
  Type,
  UnprocessableError,
  type OperationContext,
} from '@toolshed/plugin-sdk';
import { qrColors } from './colors.js';
import { EXAMPLES } from './examples.data.js';
import { CONTACT_FIELDS, CONTACT_NEEDS_A_FIELD, NOPASS_WITHOUT_PASSWORD, payloadOf } from './payload.js';
import { assertFieldsMayFit, renderSvg, type ErrorCorrection, type RenderOptions } from './render.js';

const closed = { additionalProperties: false } as const;

/**
 * Payloads up to this many UTF-16 code units are drawn on the main thread (about a millisecond);
 * longer ones (up to 7089, some 150 ms for mixed digits and letters) go to the SDK's worker pool.
 */
export const INLINE_LIMIT = 512;
/** Budget of one worker job, queue time included: ten times the slowest payload seen. */
export const RENDER_DEADLINE_MS = 2000;
const renderModule = new URL('./render.js', import.meta.url);

const sharedOptions = {
  errorCorrection: Type.Union([Type.Literal('L'), Type.Literal('M'), Type.Literal('Q'), Type.Literal('H')], {
    default: 'M',
    description: 'Error correction: L 7 %, M 15 %, Q 25 %, H 30 % of the code may be damaged',
  }),
  margin: Type.Integer({ minimum: 0, maximum: 16, default: 2, description: 'Quiet zone around the code, in modules' }),
  dark: Type.String({ maxLength: 100, default: '#000000', description: 'Module colour: any CSS colour' }),
  light: Type.String({ maxLength: 100, default: '#ffffff', description: 'Background colour: any CSS colour; transparent leaves it out' }),
};
type SharedOptions = { errorCorrection: ErrorCorrection; margin: number; dark: string; light: string };

const text = (description: string) => Type.String({ default: '', description });
const contentSchema = Type.Union(
  [
    Type.Object({ type: Type.Literal('text'), text: Type.String({ minLength: 1, description: 'Any text or link' }) }, closed),
    Type.Object(
      {
        type: Type.Literal('wifi'),
        ssid: Type.String({ minLength: 1, description: 'Network name' }),
        password: text('Network password; must be empty for nopass'),
        security: Type.Union([Type.Literal('WPA'), Type.Literal('WEP'), Type.Literal('nopass')], { default: 'WPA' }),
        hidden: Type.Boolean({ default: false, description: 'The network does not broadcast its name' }),
      },
      {
        ...closed,
        allOf: [
          {
            description: NOPASS_WITHOUT_PASSWORD,
            if: { required: ['security'], properties: { security: { const: 'nopass' } } },
            then: { properties: { password: { type: 'string', maxLength: 0 } } },
          },
        ],
      },
    ),
    Type.Object(
      {
        type: Type.Literal('contact'),
        firstName: text('Given name'),
        lastName: text('Family name'),
        organization: text('Company'),
        title: text('Job title'),
        phone: text('Telephone number'),
        email: text('Email address'),
        website: text('Web address'),
      },
      {
        ...closed,
        allOf: [
          {
            description: CONTACT_NEEDS_A_FIELD,
            anyOf: CONTACT_FIELDS.map((name) => ({ required: [name], properties: { [name]: { type: 'string', minLength: 1 } } })),
          },
        ],
      },
    ),
    Type.Object(
      {
        type: Type.Literal('email'),
        to: Type.String({ minLength: 1, pattern: '\\S', description: 'Recipient address (several separated by commas); not only white space' }),
        subject: text('Subject line'),
        body: text('Message text'),
      },
      closed,
    ),
  ],
  { description: 'What the code holds, chosen by `type`: text, wifi, contact or email' },
);

/** Lone surrogates have no UTF-8 form: a scanner would read something other than what was sent. */
function requireWellFormed(fields: Record<string, unknown>, prefix: string): void {
  const broken = Object.entries(fields).find(([, value]) => typeof value === 'string' && /\p{Cs}/u.test(value));
  if (broken !== undefined) {
    throw new UnprocessableError('invalid_text', `The field ${prefix}/${broken[0]} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`);
  }
}

/** The render options with the colours as hex; an unreadable colour is 400, before any 422. */
function renderOptions(options: SharedOptions): RenderOptions {
  return { errorCorrection: options.errorCorrection, margin: options.margin, ...qrColors(options.dark, options.light) };
}

async function draw(payload: string, render: RenderOptions, context: OperationContext): Promise<string> {
  if (payload.length <= INLINE_LIMIT) return renderSvg(payload, render);
  try {
    return await context.runInWorker<string>(renderModule, 'renderSvg', [payload, render], { deadlineMs: RENDER_DEADLINE_MS, signal: context.signal });
  } catch (error) {
    // The work is bounded (≤ 7089 characters), so missing the deadline means the pool was saturated.
    throw workerRefusal(error, { timeout: () => new ServerBusyError() });
  }
}

export default definePlugin({
  group: 'qr-code-generator',
  sdk: '^1.0.0',
  summary: 'QR codes as SVG for text, links, Wi-Fi networks, contacts and emails',
  title: 'QR code generator',
  category: 'Images and colour',
  keywords: ['qr', 'barcode', 'wifi', 'vcard', 'svg'],
  errors: {
    data_too_long: 'The payload does not fit in the largest QR code (version 40) at the chosen error correction',
    invalid_text: 'A text field contains a lone UTF-16 surrogate, which has no UTF-8 encoding',
  },
  operations: {
    create: defineOperation({
      summary: 'Encode text, a Wi-Fi network, a contact (vCard) or an email (mailto:) as a QR code',
      io: { input: 'content', output: 'svg' },
      recognizers: [
        // An email address (or a mailto: link) becomes the email form's `to`.
        {
          kind: 'email',
          title: 'Email address',
          pattern: /^(?:mailto:)?(?<to>[^\s@<>(),;:"[\]]{1,64}@(?:[a-z0-9-]{1,63}\.)+[a-z]{2,63})$/i,
          confidence: 0.85,
          fill: { content: { type: 'email', to: '$<to>' } },
        },
      ],
      errors: ['data_too_long', 'invalid_text'],
      description:
        'wifi: `WIFI:T:<security>;S:<ssid>;P:<password>;H:true;;` with `\\ ; , : "` escaped, P left out when ' +
        'the password is empty, H only when hidden. contact: vCard 3.0 with CRLF line ends, N and FN always ' +
        '(FN from the names, else organization, email, phone or website) and only the other fields given. ' +
        'email: `mailto:` with subject and body percent-encoded (space is %20). Colours: any CSS colour; ' +
        'an unreadable one is 400 on /dark or /light.',
      body: Type.Object({ content: contentSchema, ...sharedOptions }, closed),
      response: Type.Object(
        {
          payload: Type.String({ description: 'The text the code carries' }),
          svg: Type.String({ contentMediaType: 'image/svg+xml', description: 'SVG markup (viewBox in modules, no fixed size)' }),
        },
        closed,
      ),
      examples: EXAMPLES.create,
      handler: async ({ content, ...options }, context) => {
        const render = renderOptions(options);
        // `to` is trimmed into the payload, so its padding does not count.
        const fields = Object.entries(content).flatMap(([name, value]) => (typeof value !== 'string' ? [] : [name === 'to' ? value.trim() : value]));
        assertFieldsMayFit(fields, options.errorCorrection);
        requireWellFormed(content, '/content');
        const payload = payloadOf(content);
        return { payload, svg: await draw(payload, render, context) };
      },
    }),
    text: defineOperation({
      summary: 'Encode a text or link as a QR code',
      io: { input: 'text', output: 'svg' },
      errors: ['data_too_long', 'invalid_text'],
      body: Type.Object({ text: Type.String({ minLength: 1, description: 'A link or any text' }), ...sharedOptions }, closed),
      response: Type.Object({ svg: Type.String({ contentMediaType: 'image/svg+xml', description: 'SVG markup (viewBox in modules, no fixed size)' }) }, closed),
      examples: EXAMPLES.text,
      handler: async ({ text: value, ...options }, context) => {
        const render = renderOptions(options);
        requireWellFormed({ text: value }, '');
        return { svg: await draw(value, render, context) };
      },
    }),
  },
});
