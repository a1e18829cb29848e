/**
 * The request and answer schemas of recipes and identify, for the front doors and the OpenAPI
 * document, and the limits they state.
 */
import { Type, type Static } from '@toolshed/plugin-sdk';

const closed = { additionalProperties: false } as const;

/** Most steps in one recipe. */
export const MAX_STEPS = 32;
/** Largest body one step may be sent, in UTF-8 bytes of its JSON: the HTTP body cap (10 MiB). */
export const MAX_STEP_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Largest input identify reads, in characters (Unicode code points, as the schema's `maxLength`
 * counts them): the cap the schema states is the one enforced.
 */
export const MAX_IDENTIFY_INPUT_CHARS = 1024 * 1024;
/** The whole recipe's time when the front door gives none, in ms. */
export const DEFAULT_RECIPE_DEADLINE_MS = 30_000;

export const RecipeStep = Type.Object(
  {
    operation: Type.String({ minLength: 1, maxLength: 200, description: 'The operation, `group/operation` (`base64/decode`)' }),
    body: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'The step\'s body. Any value may be `{"$from": "<JSON Pointer>"}`, replaced by the value at that pointer in ' +
          '`{"input": …, "steps": [answer 0, …]}` (earlier steps only). Left out, or without the operation\'s main input ' +
          'field, the step gets the previous value there: the recipe\'s input for the first step, else the previous answer\'s main output.',
      }),
    ),
  },
  closed,
);
export type RecipeStep = Static<typeof RecipeStep>;

export const RecipeRequest = Type.Object(
  {
    input: Type.Optional(Type.Unknown({ description: 'Any JSON value; the first step\'s main input unless its body says otherwise' })),
    steps: Type.Array(RecipeStep, { minItems: 1, maxItems: MAX_STEPS, description: 'The operations to run, in order' }),
    keep: Type.Union([Type.Literal('last'), Type.Literal('all')], { default: 'last', description: '`all` also answers every step\'s answer' }),
  },
  closed,
);
export type RecipeRequest = Static<typeof RecipeRequest>;

export const RecipeAnswer = Type.Object(
  {
    result: Type.Unknown({ description: 'The last step\'s answer' }),
    steps: Type.Optional(
      Type.Array(Type.Object({ operation: Type.String({ description: 'The step\'s operation' }), answer: Type.Unknown({ description: 'Its answer' }) }, closed), { description: 'With `keep: "all"`: every step\'s answer' }),
    ),
  },
  closed,
);

export const IdentifyRequest = Type.Object(
  {
    input: Type.String({ maxLength: MAX_IDENTIFY_INPUT_CHARS, description: 'The text to identify, up to 1,048,576 characters' }),
    depth: Type.Integer({ minimum: 1, maximum: 5, default: 3, description: 'Most layers unwrapped (steps in a recipe)' }),
    limit: Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'Most candidates answered' }),
  },
  closed,
);
export type IdentifyRequest = Static<typeof IdentifyRequest>;

export const IdentifyCandidate = Type.Object(
  {
    kind: Type.String({ description: 'What the input is (`jwt`, `base64`); for a layered input, its outermost layer' }),
    title: Type.String({ description: 'What each layer is, outermost first' }),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How sure identify is, from 0 to 1' }),
    recipe: Type.Object(
      { steps: Type.Array(RecipeStep, { description: 'The operations, in order; none when no tool here reads this kind' }) },
      { ...closed, description: 'Runs as given through the recipe runner with the same input' },
    ),
    preview: Type.Unknown({ description: 'The recipe\'s answer, cut to a few hundred bytes (strings shortened, long lists cut); null without steps' }),
    note: Type.Optional(Type.String({ description: 'Present when no tool here reads this kind: why, and what comes closest' })),
  },
  closed,
);

export type IdentifyCandidate = Static<typeof IdentifyCandidate>;

export const IdentifyAnswer = Type.Object({ candidates: Type.Array(IdentifyCandidate, { description: 'Best first' }) }, closed);
export type IdentifyAnswer = Static<typeof IdentifyAnswer>;
