import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { makeSlug, MAX_TEXT_LENGTH } from './slug.js';

const closed = { additionalProperties: false } as const;

export default definePlugin({
  group: 'slug-generator',
  sdk: '^1.0.0',
  summary: 'URL slugs from text, with German transliteration',
  title: 'Slug generator',
  category: 'Text',
  keywords: ['slug', 'url', 'permalink', 'slugify'],
  errors: {
    text_too_long: `The text is longer than ${MAX_TEXT_LENGTH} characters`,
  },
  operations: {
    slugify: defineOperation({
      summary: 'Turn text into a URL slug',
      io: { input: 'text', output: 'slug' },
      description:
        'Transliterates to ASCII (`german`: ä→ae, ö→oe, ü→ue, ß→ss; otherwise accents are dropped, ä→a), ' +
        'replaces everything but letters and digits with single separators, and cuts at the last separator ' +
        'within `maxLength` (a first word longer than the limit is cut hard). Camel case is not split. ' +
        'Text with nothing sluggable gives "".',
      body: Type.Object(
        {
          text: Type.String({ description: 'The text to slugify' }),
          separator: Type.Union([Type.Literal('-'), Type.Literal('_'), Type.Literal('.')], {
            default: '-',
            description: 'Between words',
          }),
          lowercase: Type.Boolean({ default: true, description: 'Lowercase the slug' }),
          german: Type.Boolean({ default: true, description: 'German transliteration (ä→ae, ß→ss) instead of only dropping accents' }),
          maxLength: Type.Integer({ minimum: 0, maximum: 1000, default: 0, description: 'Cut at a word boundary; 0 = unlimited' }),
        },
        closed,
      ),
      response: Type.Object({ slug: Type.String() }, closed),
      examples: [
        { title: 'German transliteration', body: { text: 'Grüße aus Köln & München!' }, response: { slug: 'gruesse-aus-koeln-and-muenchen' } },
        {
          title: 'Accents dropped, underscore, cut at a word',
          body: { text: 'Ärger über Öl', german: false, separator: '_', lowercase: false, maxLength: 10 },
          response: { slug: 'Arger_uber' },
        },
      ],
      handler: ({ text, ...options }) => ({ slug: makeSlug(text, options) }),
    }),
  },
});
