/**
 * TypeBox's compiled checks with every regular expression in them matched in linear time (see
 * linear-regexp.ts): a schema's `pattern`s and `patternProperties` come from manifests the service
 * did not write, and JavaScript's own engine can spend seconds on one short string.
 */
import type { TSchema } from 'typebox';
import type { TLocalizedValidationError } from 'typebox/error';
import { withLinearRegExp } from './linear-regexp.js';
import { Compile, Format } from './typebox.js';

const JavaScriptRegExp = RegExp;
// The `regex` format asks whether a value is a JavaScript pattern, and TypeBox answers with
// `new RegExp(value, 'u')`, which under the lent name would ask the linear engine instead and
// refuse `(a)\1`. Compiling is not matching: JavaScript's own compiler answers, as before.
Format.Set('regex', (value) => {
  try {
    new JavaScriptRegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
});

/** A compiled schema: whether a value is valid, and what is wrong with it. */
export interface CompiledCheck {
  Check(value: unknown): boolean;
  Errors(value: unknown): TLocalizedValidationError[];
}

/** Compiles `schema` (throws when TypeBox cannot, or a pattern is one the linear engine cannot take). */
export function compileLinear(schema: TSchema): CompiledCheck {
  const validator = withLinearRegExp(() => Compile(schema));
  // Compiled to code, the check holds the expressions it was built with; TypeBox's interpreted
  // check (where code cannot be generated) and its error list build theirs as they go.
  const accelerated = validator.IsAccelerated();
  return {
    Check: accelerated ? (value) => validator.Check(value) : (value) => withLinearRegExp(() => validator.Check(value)),
    Errors: (value) => withLinearRegExp(() => validator.Errors(value)),
  };
}
