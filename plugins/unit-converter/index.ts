import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { convert } from './convert.js';
import { CATEGORY_NAMES, UNITS, type CategoryName } from './units.data.js';

const closed = { additionalProperties: false } as const;

const unitEntry = Type.Object(
  {
    unit: Type.String({ description: 'Unit id (lowercase ASCII)' }),
    symbol: Type.String({ description: 'Proper symbol (°C, m², µs, …)' }),
    value: Type.Number(),
  },
  closed,
);

const unitList = CATEGORY_NAMES.map(
  (category) => `- ${category}: ${UNITS[category].map((unit) => `\`${unit.id}\` (${unit.symbol})`).join(', ')}`,
).join('\n');

/** A pattern matching exactly the unit ids of `category`, in any ASCII letter case (as the handler matches them). */
function unitIdPattern(category: CategoryName): string {
  const anyCase = (id: string) => id.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
  return `^(?:${UNITS[category].map((unit) => anyCase(unit.id)).join('|')})$`;
}

/** One rule per category: `from` and `to` are units of it. */
const unitsOfCategory = CATEGORY_NAMES.map((category) => {
  const unitId = { type: 'string', pattern: unitIdPattern(category) };
  return {
    description: `must be a ${category} unit when category is ${category}: ${UNITS[category].map((unit) => unit.id).join(', ')} (any letter case)`,
    if: { required: ['category'], properties: { category: { const: category } } },
    then: { properties: { from: unitId, to: unitId } },
  };
});

export default definePlugin({
  group: 'unit-converter',
  sdk: '^1.0.0',
  summary: 'Unit conversion with exact NIST SP 811 factors, rounded to 12 significant digits',
  title: 'Unit converter',
  category: 'Numbers and money',
  keywords: ['units', 'length', 'weight', 'temperature', 'metric', 'imperial', 'convert'],
  errors: {
    result_not_finite: 'A converted value is beyond the range of a double (about 1.8e308)',
    below_absolute_zero: 'The temperature is below absolute zero (0 K)',
  },
  operations: {
    convert: defineOperation({
      summary: 'Convert a value between units of one category',
      description:
        'Unit ids are matched case-insensitively (ASCII only). Without `to`, the value is converted to every ' +
        'unit of the category, in the order below (the source unit included). Results are rounded to 12 ' +
        'significant digits; volumes are US customary unless marked UK; a year is 365.2425 days and a ' +
        'month 1/12 year; `cal` is the thermochemical calorie (4.184 J).\n\n' +
        unitList,
      body: Type.Object(
        {
          value: Type.Number({ description: 'The value to convert' }),
          category: Type.Enum(CATEGORY_NAMES, { description: 'Kind of quantity' }),
          from: Type.String({ description: 'Source unit id (for example `km`); must be a unit of category, any letter case (the full description of the operation lists the ids of each category)' }),
          to: Type.Optional(Type.String({ description: 'Target unit id; must be a unit of category, any letter case; omit to get every unit of the category' })),
        },
        { ...closed, allOf: unitsOfCategory },
      ),
      response: Type.Object({ input: unitEntry, results: Type.Array(unitEntry) }, closed),
      examples: [
        {
          title: 'One inch is 2.54 cm exactly',
          body: { value: 1, category: 'length', from: 'in', to: 'cm' },
          response: { input: { unit: 'in', symbol: 'in', value: 1 }, results: [{ unit: 'cm', symbol: 'cm', value: 2.54 }] },
        },
        {
          title: 'Boiling water in every temperature unit',
          body: { value: 100, category: 'temperature', from: 'C' },
          response: {
            input: { unit: 'c', symbol: '°C', value: 100 },
            results: [
              { unit: 'c', symbol: '°C', value: 100 },
              { unit: 'f', symbol: '°F', value: 212 },
              { unit: 'k', symbol: 'K', value: 373.15 },
              { unit: 'r', symbol: '°R', value: 671.67 },
            ],
          },
        },
      ],
      handler: ({ value, category, from, to }) => convert(value, category, from, to),
    }),
  },
});
