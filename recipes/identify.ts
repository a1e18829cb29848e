/**
 * Identify: what is this input, and which recipe decodes it? Recognizers from the manifests propose
 * operations; each proposal counts only when the operation, run on the input, accepts it; when its
 * answer is again recognisable, identify goes on, up to `depth` steps. The work is counted, not
 * timed: a fixed number of speculative runs, a fixed number of input bytes across them.
 */
import { compileSchema, InputError, isToolshedError } from '@toolshed/plugin-sdk';
import { checkRecipe, mainFields } from './check.js';
import { answerValue, type Caller, type Executor } from './executor.js';
import { previewOf } from './preview.js';
import { readableShare, recognizersFrom, sampleOf, type ActiveRecognizer } from './recognizers.js';
import { IdentifyRequest, MAX_IDENTIFY_INPUT_BYTES, type IdentifyAnswer } from './schemas.js';

/** Most operations identify runs for one request. */
export const MAX_SPECULATIVE_RUNS = 24;
/** Most input bytes identify hands to operations for one request, all runs together. */
export const MAX_SPECULATIVE_BYTES = 4 * 1024 * 1024;
/** Most recognised operations tried on one layer. */
export const MAX_TRIES_PER_LAYER = 6;
/** One speculative run's time cap in ms (below the operation's own deadline). */
export const SPECULATIVE_RUN_MS = 2000;

export interface IdentifyOptions {
  readonly signal?: AbortSignal;
  readonly requestId?: string;
}

/** One confirmed step of a chain. */
interface Layer {
  readonly recognizer: ActiveRecognizer;
  readonly answer: unknown;
  /** The recognizer's confidence, lowered when the answer's main output is hard to read. */
  readonly confidence: number;
}

interface Budget {
  runs: number;
  bytes: number;
}

/** A step's body for the recipe: the recognizer's fixed fields, and the input wired when it is not the main input. */
function stepOf(layer: Layer, index: number, previous: Layer | undefined): { operation: string; body?: Record<string, unknown> } {
  const { recognizer } = layer;
  const body: Record<string, unknown> = { ...recognizer.body };
  if (recognizer.field !== mainFields(recognizer.operation).input) {
    body[recognizer.field] = { $from: index === 0 ? '/input' : `/steps/${index - 1}/${mainFields(previous!.recognizer.operation).output}` };
  }
  return Object.keys(body).length === 0 ? { operation: recognizer.operation.name } : { operation: recognizer.operation.name, body };
}

/** A chain's confidence: its first layer's, raised a little by each confirmed inner layer. */
function chainConfidence(layers: readonly Layer[]): number {
  return layers.reduceRight((inner, layer, index) => (index === layers.length - 1 ? layer.confidence : layer.confidence + (1 - layer.confidence) * 0.5 * inner), 0);
}

class Identifier {
  private readonly budget: Budget = { runs: MAX_SPECULATIVE_RUNS, bytes: MAX_SPECULATIVE_BYTES };
  /** Each try's caller: gone when identify's own signal fires; a try costs nothing more against a limit. */
  private readonly caller: Caller | undefined;

  constructor(
    private readonly executor: Executor,
    private readonly recognizers: readonly ActiveRecognizer[],
    private readonly options: IdentifyOptions,
  ) {
    const signal = options.signal;
    this.caller = signal === undefined ? undefined : { gone: () => signal, charge: () => Promise.resolve() };
  }

  /** Runs `recognizer`'s operation on `text`; the answer, or undefined when refused or out of budget. */
  private async confirm(recognizer: ActiveRecognizer, text: string): Promise<Layer | undefined> {
    const bytes = Buffer.byteLength(text);
    if (this.budget.runs <= 0 || bytes > this.budget.bytes || this.options.signal?.aborted === true) return undefined;
    this.budget.runs -= 1;
    this.budget.bytes -= bytes;
    try {
      const body = { ...recognizer.body, [recognizer.field]: text };
      const answer = answerValue(await this.executor.run({ operation: recognizer.operation, body, caller: this.caller, requestId: this.options.requestId, deadlineMs: SPECULATIVE_RUN_MS }));
      const output = (answer as Record<string, unknown>)[mainFields(recognizer.operation).output ?? ''];
      const readable = typeof output !== 'string' || output === '' || readableShare(output) >= 0.9;
      return { recognizer, answer, confidence: readable ? recognizer.confidence : recognizer.confidence * 0.3 };
    } catch (error) {
      if (isToolshedError(error)) return undefined;
      throw error;
    }
  }

  /** The confirmed chains for `text`, each as deep as `depth` allows; `after` is the operation that gave `text`. */
  async chains(text: string, depth: number, after?: string): Promise<Layer[][]> {
    const sample = sampleOf(text);
    if (sample === '') return [];
    const seen = new Set<string>();
    const tries: ActiveRecognizer[] = [];
    for (const recognizer of this.recognizers) {
      if (tries.length >= MAX_TRIES_PER_LAYER) break;
      const key = `${recognizer.operation.name} ${JSON.stringify(recognizer.body)} ${recognizer.field}`;
      // An operation right after itself would re-read its own answer (a colour into the colour converter).
      if (seen.has(key) || recognizer.operation.name === after || !recognizer.regex.test(sample)) continue;
      seen.add(key);
      tries.push(recognizer);
    }
    const found: Layer[][] = [];
    for (const recognizer of tries) {
      const layer = await this.confirm(recognizer, text);
      if (layer === undefined) continue;
      let chain = [layer];
      const output = (layer.answer as Record<string, unknown>)[mainFields(recognizer.operation).output ?? ''];
      // Only a layer that unwraps (its answer is shorter text) is looked into again, as Magic peels encodings.
      if (depth > 1 && typeof output === 'string' && output.length < text.length) {
        const inner = (await this.chains(output, depth - 1, recognizer.operation.name)).sort((a, b) => chainConfidence(b) - chainConfidence(a))[0];
        if (inner !== undefined && chainConfidence(inner) > 0.5) chain = [layer, ...inner];
      }
      found.push(chain);
    }
    return found;
  }
}

/**
 * Names what `body.input` is, best first, each with the recipe that decodes it and a preview of its
 * answer. Rejects with the SDK's 400 InputError for a request outside its schema.
 */
export async function identify(executor: Executor, body: unknown, options: IdentifyOptions = {}): Promise<IdentifyAnswer> {
  const validator = compileSchema(IdentifyRequest);
  const request = validator.withDefaults(structuredClone(body)) as IdentifyRequest;
  const problems = validator.problems(request);
  if (problems.length > 0) throw new InputError('The identify request is not valid', problems);
  if (Buffer.byteLength(request.input) > MAX_IDENTIFY_INPUT_BYTES) {
    throw new InputError('The input is too long to identify', [{ path: '/input', message: `must be at most ${MAX_IDENTIFY_INPUT_BYTES} bytes of UTF-8` }]);
  }
  const chains = await new Identifier(executor, recognizersFrom(executor), options).chains(request.input, request.depth);
  const candidates = chains
    .map((layers) => {
      const steps = layers.map((layer, index) => stepOf(layer, index, layers[index - 1]));
      return {
        kind: layers[0]!.recognizer.kind,
        title: layers.map((layer) => layer.recognizer.title).join(' → '),
        confidence: Math.round(chainConfidence(layers) * 1000) / 1000,
        recipe: { steps },
        preview: previewOf(layers[layers.length - 1]!.answer),
      };
    })
    .sort((a, b) => b.confidence - a.confidence);
  // Every recipe answered is one the runner accepts as given (a check, not a run: no extra work).
  for (const candidate of candidates) checkRecipe(executor, { input: request.input, steps: candidate.recipe.steps });
  return { candidates: candidates.slice(0, request.limit) };
}
