import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { convert } from './color.js';
import { contrast } from './contrast.js';
import { EXAMPLES } from './examples.data.js';

const closed = { additionalProperties: false } as const;
const colorField = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

const rgba = Type.Object(
  {
    r: Type.Number({ description: 'Red 0–255 (integer)' }),
    g: Type.Number({ description: 'Green 0–255 (integer)' }),
    b: Type.Number({ description: 'Blue 0–255 (integer)' }),
    a: Type.Number({ description: 'Alpha 0–1, 2 decimals' }),
  },
  closed,
);

export default definePlugin({
  group: 'color-converter',
  sdk: '^1.0.0',
  summary: 'Colour conversion between CSS notations, tints and shades, and WCAG 2.x contrast',
  title: 'Colour converter',
  category: 'Images and colour',
  keywords: ['color', 'hex', 'rgb', 'hsl', 'oklch', 'cmyk', 'contrast', 'wcag', 'palette', 'tints'],
  errors: {
    invalid_color: 'The text is not a CSS colour culori can parse (hex, rgb(), hsl(), hwb(), lab(), oklch(), color(), a name …)',
  },
  operations: {
    convert: defineOperation({
      summary: 'Convert a CSS colour to hex, rgb, hsl, hsv, oklch and cmyk',
      io: { input: 'color', output: 'hex' },
      recognizers: [
        { kind: 'css-color', title: 'CSS colour (hex)', pattern: /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, confidence: 0.9 },
        { kind: 'css-color', title: 'CSS colour (function)', pattern: /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)$/i, confidence: 0.9 },
        // Any single word: the converter knows the CSS colour names, and refuses every other word.
        { kind: 'css-color', title: 'CSS colour (named)', pattern: /^[a-z]{3,20}$/i, confidence: 0.8 },
      ],
      errors: ['invalid_color'],
      description:
        'The colour is trimmed and read case-insensitively. sRGB notations (hex, rgb(), hsl(), hwb(), names) ' +
        'are clamped per channel as CSS does; wider colours (oklch(), lab(), color(display-p3 …)) are ' +
        'gamut-mapped into sRGB with the CSS Color 4 algorithm (chroma reduced at constant OKLCh lightness ' +
        'and hue). Rounding: rgb and rgba integers; hsl and hsv whole degrees and percents; oklch lightness ' +
        '1 decimal %, chroma 4 decimals, hue 2 decimals; cmyk whole percents; alpha 2 decimals, written as ' +
        '` / a` and as `#rrggbbaa` when below 1. A grey has hue 0. `scale` samples the OKLab ramp ' +
        'white → colour → black at 1/13 … 12/13 (light to dark, the colour opaque, between steps 6 and 7).',
      body: Type.Object(
        {
          color: colorField('Any CSS colour: hex, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color() or a name'),
          scale: Type.Boolean({ default: false, description: 'Also return 12 tints and shades, light to dark' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          hex: Type.String({ description: '#rrggbb, or #rrggbbaa when translucent' }),
          rgb: Type.String({ description: 'rgb(255 0 0), with / alpha when translucent' }),
          hsl: Type.String({ description: 'hsl(0 100% 50%)' }),
          hsv: Type.String({ description: 'hsv(0 100% 100%)' }),
          oklch: Type.String({ description: 'oklch(62.8% 0.2577 29.23)' }),
          cmyk: Type.String({ description: 'cmyk(0% 100% 100% 0%): the naive formula, no ICC profile' }),
          rgba,
          scale: Type.Optional(Type.Array(Type.String(), { description: '12 hex colours, light to dark' })),
        },
        closed,
      ),
      examples: EXAMPLES.convert,
      handler: ({ color, scale }) => convert(color, scale),
    }),
    contrast: defineOperation({
      summary: 'WCAG 2.x contrast ratio of a text colour on a background',
      errors: ['invalid_color'],
      description:
        'A translucent background is first composited over white, then a translucent foreground over the ' +
        'background. `ratio` is rounded down to 2 decimals (as WebAIM shows it); the WCAG thresholds ' +
        '(AA 4.5, AA large 3, AAA 7, AAA large 4.5, UI components 3) are compared on the unrounded ratio.',
      body: Type.Object(
        {
          foreground: colorField('Text colour (any CSS colour)'),
          background: colorField('Background colour (any CSS colour)'),
        },
        closed,
      ),
      response: Type.Object(
        {
          ratio: Type.Number({ description: 'Contrast ratio x of x:1, 1–21, rounded down to 2 decimals' }),
          wcag: Type.Object(
            {
              aaNormal: Type.Boolean({ description: 'ratio ≥ 4.5' }),
              aaLarge: Type.Boolean({ description: 'ratio ≥ 3' }),
              aaaNormal: Type.Boolean({ description: 'ratio ≥ 7' }),
              aaaLarge: Type.Boolean({ description: 'ratio ≥ 4.5' }),
              ui: Type.Boolean({ description: 'ratio ≥ 3 (non-text contrast, WCAG 1.4.11)' }),
            },
            closed,
          ),
        },
        closed,
      ),
      examples: EXAMPLES.contrast,
      handler: ({ foreground, background }) => contrast(foreground, background),
    }),
  },
});
