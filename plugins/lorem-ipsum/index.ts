import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { CLASSIC_SENTENCE, generateLorem } from './generate.js';

const closed = { additionalProperties: false } as const;

/** The spec's per-unit bound: the schema allows 5000 (for words), paragraphs and sentences stop at 200. */
export const MAX_PARAGRAPHS_OR_SENTENCES = 200;
/** The rule on count, as the schema states it and as the field's description words it. */
const COUNT_RULE = `must be at most ${MAX_PARAGRAPHS_OR_SENTENCES} when unit is paragraphs or sentences`;

export default definePlugin({
  group: 'lorem-ipsum',
  sdk: '^1.0.0',
  summary: 'Placeholder text: lorem ipsum paragraphs, sentences or words',
  title: 'Lorem ipsum',
  category: 'Text',
  keywords: ['placeholder', 'dummy text', 'filler'],
  operations: {
    generate: defineOperation({
      summary: 'Generate an exact number of lorem ipsum paragraphs, sentences or words',
      io: { output: 'text' },
      deterministic: false, // random text
      description:
        'Paragraphs have 4–7 sentences, sentences 6–14 words and end with a period. `count` is at most 200 for ' +
        'paragraphs and sentences (the schema\'s if/then; a 400 naming `/count`), 5000 for words. With `html`, each paragraph is wrapped ' +
        'in `<p>…</p>`; sentences and words come as one `<p>`.',
      body: Type.Object(
        {
          unit: Type.Union([Type.Literal('paragraphs'), Type.Literal('sentences'), Type.Literal('words')], {
            default: 'paragraphs',
            description: 'What `count` counts',
          }),
          count: Type.Integer({ minimum: 1, maximum: 5000, default: 3, description: `How many of unit; ${COUNT_RULE} (5000 for words)` }),
          startClassic: Type.Boolean({ default: true, description: 'Start with "Lorem ipsum dolor sit amet, consectetur adipiscing elit"' }),
          html: Type.Boolean({ default: false, description: 'Wrap paragraphs in <p> tags' }),
        },
        {
          ...closed,
          allOf: [
            {
              description: COUNT_RULE,
              if: { properties: { unit: { enum: ['paragraphs', 'sentences'] } } },
              then: { properties: { count: { type: 'integer', maximum: MAX_PARAGRAPHS_OR_SENTENCES } } },
            },
          ],
        },
      ),
      response: Type.Object({ text: Type.String() }, closed),
      examples: [
        { title: 'The classic sentence', body: { unit: 'sentences', count: 1 }, response: { text: CLASSIC_SENTENCE } },
        { title: 'Five words', body: { unit: 'words', count: 5 }, response: { text: 'Lorem ipsum dolor sit amet' } },
        {
          title: 'As HTML',
          body: { unit: 'sentences', count: 1, html: true },
          response: { text: '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>' },
        },
      ],
      // The schema's if/then holds count to 200 for paragraphs and sentences.
      handler: (options) => {
        // Placeholder text needs no unpredictability; Math.random keeps the handler synchronous and cheap.
        return { text: generateLorem(options, Math.random) };
      },
    }),
  },
});
