import { definePlugin, defineOperation, InputError, Type } from '@toolshed/plugin-sdk';
import { SegmentBudget } from './segmenter.js';
import { textStats } from './stats.js';
import { TRANSFORMS, transformText } from './transforms.js';

/** Latin, Greek, Cyrillic, Devanagari, Thai, CJK and emoji: every lookup table and segmenter path. */
const WARM_TEXT = 'Hello wörld. Καλημέρα κόσμε! Привет, мир? नमस्ते दुनिया। สวัสดีชาวโลก 你好，世界。👍🏽 e\u0301\n\nline two';

/** Builds the tables and segmenters the handlers build on first use (0.3–2 s) before any request. */
function warm(): void {
  textStats(WARM_TEXT, 10, new SegmentBudget());
  for (const transform of TRANSFORMS) transformText(WARM_TEXT, transform, 'tr', new SegmentBudget());
}

const closed = { additionalProperties: false } as const;

/** The canonical form of a BCP 47 tag; an invalid tag is a 400 on /locale. */
function canonicalLocale(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  try {
    return Intl.getCanonicalLocales(locale)[0];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new InputError('locale is not a valid language tag', [{ path: '/locale', message: 'must be a BCP 47 language tag such as "tr" or "de-CH"' }]);
  }
}

const count = (description: string) => Type.Integer({ minimum: 0, description });

/**
 * The grammar of a Unicode BCP 47 locale identifier (UTS #35), which Intl.getCanonicalLocales
 * checks: language, script, region, variants, extensions (u and t with their own subtag shapes),
 * private use. Whether a variant or an extension singleton repeats is beyond a generator-friendly
 * pattern and stays in the description. Repetitions are as the grammar has them, unbounded: the
 * service matches patterns in linear time (RE2, which refuses counted repetitions nested past
 * 1,000), and {@link MAX_LOCALE_LENGTH} bounds the tag, and so the work of the pattern and of Intl
 * (2 s for a 14 MB tag).
 */
const LOCALE_PATTERN = (() => {
  const [alpha, digit, alnum] = ['[A-Za-z]', '[0-9]', '[A-Za-z0-9]'];
  const languageId = `(?:${alpha}{2,3}|${alpha}{5,8})(?:-${alpha}{4})?(?:-(?:${alpha}{2}|${digit}{3}))?(?:-(?:${alnum}{5,8}|${digit}${alnum}{3}))*`;
  const tField = `-${alpha}${digit}(?:-${alnum}{3,8})+`;
  const extension = [
    `-[uU](?:-(?:${alnum}${alpha}|${alnum}{3,8}))+`,
    `-[tT](?:-${languageId}(?:${tField})*|(?:${tField})+)`,
    `-[0-9A-SV-WYZa-sv-wyz](?:-${alnum}{2,8})+`,
  ].join('|');
  return `^${languageId}(?:${extension})*(?:-[xX](?:-${alnum}{1,8})+)?$`;
})();
/** Longest locale tag, in characters: far beyond any real one (CLDR's are under 40). */
const MAX_LOCALE_LENGTH = 255;

export default definePlugin({
  group: 'word-counter',
  sdk: '^1.0.0',
  summary: 'Word, sentence and character counts, reading time, and text transformations',
  title: 'Word counter',
  category: 'Text',
  keywords: ['words', 'characters', 'count', 'reading time', 'case', 'uppercase', 'lowercase'],
  warm,
  errors: {
    text_too_complex: 'The text needs more full Unicode segmentation than one request may use (very long texts in scripts without spaces)',
    too_many_lines: 'sortAsc and sortDesc sort at most 200,000 different lines',
  },
  operations: {
    stats: defineOperation({
      summary: 'Count characters (grapheme clusters), words, sentences, paragraphs and lines; reading and speaking time; top words',
      io: { input: 'text', output: 'words' },
      // Prose: words, without the brackets and operators of code and markup. At most 0.5, as text is what everything else is made of.
      recognizers: [{ kind: 'prose', title: 'Text (prose)', pattern: /^(?=[^\n]{0,200}?\p{L}{2,}[ \t]+\p{L}{2,}[ \t,]+\p{L}{2,})[^{}[\]<>=|\\]+$/u, confidence: 0.4 }],
      errors: ['text_too_complex'],
      description:
        'Words are Unicode word segments (Intl.Segmenter), compared in lowercase. Letters in `avgWordLength` and ' +
        '`topWords` are letters and digits (apostrophes, periods and combining marks do not count).',
      body: Type.Object(
        {
          text: Type.String({ description: 'The text to count' }),
          topWords: Type.Integer({ minimum: 0, maximum: 100, default: 10, description: 'How many of the most frequent words of 3+ letters to list' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          characters: count('Grapheme clusters'),
          charactersNoSpaces: count('Grapheme clusters that are not whitespace'),
          words: count('Word-like segments'),
          sentences: count('Sentence segments that are not blank'),
          paragraphs: count('Blocks of non-blank lines'),
          lines: count('0 for the empty text, else line breaks + 1'),
          uniqueWords: count('Distinct words, case-insensitive'),
          avgWordLength: Type.Number({ minimum: 0, description: 'Letters per word, 2 decimals' }),
          readingMinutes: Type.Number({ minimum: 0, description: 'At 200 words per minute, 2 decimals' }),
          speakingMinutes: Type.Number({ minimum: 0, description: 'At 130 words per minute, 2 decimals' }),
          bytes: count('UTF-8 length'),
          topWords: Type.Array(Type.Object({ word: Type.String(), count: Type.Integer({ minimum: 1 }) }, closed)),
        },
        closed,
      ),
      examples: [
        {
          title: 'Two sentences',
          body: { text: 'The cat sat. The cat ran!', topWords: 3 },
          response: {
            characters: 25,
            charactersNoSpaces: 20,
            words: 6,
            sentences: 2,
            paragraphs: 1,
            lines: 1,
            uniqueWords: 4,
            avgWordLength: 3,
            readingMinutes: 0.03,
            speakingMinutes: 0.05,
            bytes: 25,
            topWords: [
              { word: 'cat', count: 2 },
              { word: 'the', count: 2 },
              { word: 'ran', count: 1 },
            ],
          },
        },
      ],
      handler: ({ text, topWords }) => textStats(text, topWords, new SegmentBudget()),
    }),
    transform: defineOperation({
      summary: 'Change case, sort, dedupe, trim or reverse text',
      io: { input: 'text', output: 'text' },
      errors: ['text_too_complex', 'too_many_lines'],
      description:
        'Case changes honour `locale` (`tr`: i → İ); sortAsc/sortDesc use Intl.Collator in `locale` (default `en`). ' +
        '`\\r\\n` and `\\n` both end a line; the output uses `\\n`.',
      body: Type.Object(
        {
          text: Type.String({ description: 'The text to change' }),
          transform: Type.Union(TRANSFORMS.map((name) => Type.Literal(name)), { description: 'What to do to the text' }),
          locale: Type.Optional(
            Type.String({
              minLength: 2,
              maxLength: MAX_LOCALE_LENGTH,
              pattern: LOCALE_PATTERN,
              description:
                'BCP 47 language tag for case conversion and sorting, e.g. "tr" or "de". Besides the pattern, no variant and no ' +
                'extension singleton may appear twice (de-1996-1996 and en-u-ca-gregory-u-nu-latn are 400 on /locale).',
            }),
          ),
        },
        closed,
      ),
      response: Type.Object({ text: Type.String() }, closed),
      examples: [
        { title: 'Snake case', body: { text: 'fooBar HTTPServer', transform: 'snake' }, response: { text: 'foo_bar_http_server' } },
        { title: 'Turkish upper case', body: { text: 'istanbul', transform: 'upper', locale: 'tr' }, response: { text: 'İSTANBUL' } },
        { title: 'Reverse by grapheme', body: { text: 'ab 👍🏽', transform: 'reverse' }, response: { text: '👍🏽 ba' } },
      ],
      handler: ({ text, transform, locale }) => ({
        text: transformText(text, transform, canonicalLocale(locale), new SegmentBudget()),
      }),
    }),
  },
});
