/** Body-mass index and the WHO adult classification; pure arithmetic, no HTTP. */
import { roundDecimal } from '@toolshed/plugin-sdk';

/** The WHO adult classes, in order. */
export const BMI_CATEGORIES = [
  'severe-thinness',
  'moderate-thinness',
  'mild-thinness',
  'normal',
  'pre-obese',
  'obese-1',
  'obese-2',
  'obese-3',
] as const;

/** One WHO adult class. */
export type BmiCategory = (typeof BMI_CATEGORIES)[number];

// Upper bounds (exclusive) of every class but the last, WHO "BMI classification" table.
const UPPER_BOUNDS: readonly number[] = [16, 17, 18.5, 25, 30, 35, 40];

// The WHO "normal" range is 18.5–24.9 as printed in its table.
const NORMAL_MIN = 18.5;
const NORMAL_MAX = 24.9;

/** The answer of /calculate. */
export interface BmiResult {
  bmi: number;
  category: BmiCategory;
  normalWeightKg: { min: number; max: number };
}

/**
 * Classifies a BMI that is already rounded to one decimal. The class follows the value shown to the
 * user: 24.95 is shown as 25.0 and is therefore pre-obese, never "normal with 25.0".
 */
export function classify(roundedBmi: number): BmiCategory {
  const index = UPPER_BOUNDS.findIndex((bound) => roundedBmi < bound);
  return BMI_CATEGORIES[index === -1 ? BMI_CATEGORIES.length - 1 : index]!;
}

/** BMI (kg/m², one decimal), its WHO class and the normal weight range at this height. */
export function calculateBmi(weightKg: number, heightCm: number): BmiResult {
  // cm² / 10000 keeps h² exact for whole centimetres (1.8 m would square to 3.2400000000000004).
  const heightSquared = (heightCm * heightCm) / 10000;
  const bmi = roundDecimal(weightKg / heightSquared, 1);
  return {
    bmi,
    category: classify(bmi),
    normalWeightKg: {
      min: roundDecimal(NORMAL_MIN * heightSquared, 1),
      max: roundDecimal(NORMAL_MAX * heightSquared, 1),
    },
  };
}
