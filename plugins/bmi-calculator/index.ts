import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { BMI_CATEGORIES, calculateBmi } from './bmi.js';

const closed = { additionalProperties: false } as const;

export default definePlugin({
  group: 'bmi-calculator',
  sdk: '^1.0.0',
  summary: 'Body-mass index with the WHO adult classification',
  title: 'BMI calculator',
  category: 'Numbers and money',
  keywords: ['body mass index', 'weight', 'height', 'health'],
  operations: {
    calculate: defineOperation({
      summary: 'BMI, WHO adult class and the normal weight range for a height',
      description:
        'BMI = weight / height² (kg/m²), rounded to one decimal; the class is taken from the rounded value ' +
        '(< 16 severe-thinness, < 17 moderate-thinness, < 18.5 mild-thinness, < 25 normal, < 30 pre-obese, ' +
        '< 35 obese-1, < 40 obese-2, else obese-3). `normalWeightKg` is 18.5·h² to 24.9·h², one decimal.',
      body: Type.Object(
        {
          weightKg: Type.Number({ exclusiveMinimum: 0, maximum: 700, description: 'Body weight in kilograms' }),
          heightCm: Type.Number({ minimum: 30, maximum: 300, description: 'Body height in centimetres' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          bmi: Type.Number({ description: 'kg/m², rounded to one decimal' }),
          category: Type.Enum(BMI_CATEGORIES, { description: 'WHO adult class of the rounded BMI' }),
          normalWeightKg: Type.Object(
            { min: Type.Number({ description: 'kg for a BMI of 18.5' }), max: Type.Number({ description: 'kg for a BMI of 24.9' }) },
            closed,
          ),
        },
        closed,
      ),
      examples: [
        {
          title: '70 kg at 175 cm',
          body: { weightKg: 70, heightCm: 175 },
          response: { bmi: 22.9, category: 'normal', normalWeightKg: { min: 56.7, max: 76.3 } },
        },
      ],
      handler: ({ weightKg, heightCm }) => calculateBmi(weightKg, heightCm),
    }),
  },
});
