/**
 * Identify: what is this input, and which recipe decodes it? Recognizers from the manifests propose
 * operations, and the operation is the judge: a proposal counts only when the operation, run on the
 * input, accepts it and its answer says what the recognizer expects (data-converter's `from: auto`
 * answers which format it read). One run answers every recognizer that asks the same question.
 * When an answer is again recognisable, identify goes on, up to `depth` steps. Kinds no operation
 * reads are named from identify's own list, without a recipe. The work is counted, not timed: a
 * fixed number of runs per layer and per request, a fixed number of input bytes across them.
 */
import { isToolshedError } from '@toolshed/plugin-sdk';
import { checkRecipe, mainFields } from './check.js';
import { eventLoopSlice, type EventLoopSlice } from './event-loop-slice.js';
import { checkIdentifyRequest } from './pool-checks.js';
import { jsonHere, type Caller, type CompositeJson, type Executor } from './executor.js';
import { NAMED_KINDS } from './identify-kinds.js';
import { previewOf } from './preview.js';
import { answerMatches, filledFields, readableShare, recognizersFrom, sampleOf, type ActiveRecognizer } from './recognizers.js';
import { IdentifyRequest, type IdentifyAnswer, type IdentifyCandidate } from './schemas.js';

/** Most operations identify runs for one request. */
export const MAX_SPECULATIVE_RUNS = 24;
/** Most input bytes identify hands to operations for one request, all runs together. */
export const MAX_SPECULATIVE_BYTES = 4 * 1024 * 1024;
/** Most runs on one layer (recognizers asking the same question share one run). */
export const MAX_TRIES_PER_LAYER = 6;
/** One speculative run's time cap in ms (below the operation's own deadline). */
export const SPECULATIVE_RUN_MS = 2000;

export interface IdentifyOptions {
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  /** Where each try's body is written and its answer parsed (the host's: on the pool when large); none: here. */
  readonly json?: CompositeJson;
  /** The clock of the event loop's slices, in ms (tests count tries with it); `performance.now()` by default. */
  readonly now?: () => number;
}

/** One confirmed step of a chain. */
interface Layer {
  readonly recognizer: ActiveRecognizer;
  readonly answer: unknown;
  /** The recognizer's confidence, lowered when the answer's main output is hard to read. */
  readonly confidence: number;
  /** Body fields the recognizer made from the input (its `fill`), sent instead of the input. */
  readonly filled: Readonly<Record<string, unknown>> | undefined;
}

/** One planned run on a layer: the body it sends and the recognizers its answer serves. */
interface Run {
  readonly recognizer: ActiveRecognizer;
  readonly body: Record<string, unknown>;
  readonly filled: Readonly<Record<string, unknown>> | undefined;
  readonly serves: ActiveRecognizer[];
}

interface Budget {
  runs: number;
  bytes: number;
}

/** A step's body for the recipe: the recognizer's fixed and made fields, and the input wired when it is not the main input. */
function stepOf(layer: Layer, index: number, previous: Layer | undefined): IdentifyCandidate['recipe']['steps'][number] {
  const { recognizer, filled } = layer;
  const body: Record<string, unknown> = { ...recognizer.body, ...filled };
  if (!(recognizer.field in body) && recognizer.field !== mainFields(recognizer.operation).input) {
    body[recognizer.field] = { $from: index === 0 ? '/input' : `/steps/${index - 1}/${mainFields(previous!.recognizer.operation).output}` };
  }
  return Object.keys(body).length === 0 ? { operation: recognizer.operation.name } : { operation: recognizer.operation.name, body };
}

/** A chain's confidence: its first layer's, raised a little by each confirmed inner layer. */
function chainConfidence(layers: readonly Layer[]): number {
  return layers.reduceRight((inner, layer, index) => (index === layers.length - 1 ? layer.confidence : layer.confidence + (1 - layer.confidence) * 0.5 * inner), 0);
}

const mainOutputOf = (layer: Layer): unknown => (layer.answer as Record<string, unknown>)[mainFields(layer.recognizer.operation).output ?? ''];

class Identifier {
  private readonly budget: Budget = { runs: MAX_SPECULATIVE_RUNS, bytes: MAX_SPECULATIVE_BYTES };
  /** Each try's caller: gone when identify's own signal fires; a try costs nothing more against a limit. */
  private readonly caller: Caller | undefined;

  constructor(
    private readonly executor: Executor,
    private readonly recognizers: readonly ActiveRecognizer[],
    private readonly options: IdentifyOptions,
    /** The request's one slice of the event loop, which the recognizers' first compile may have begun. */
    private readonly slice: EventLoopSlice,
  ) {
    const signal = options.signal;
    this.caller = signal === undefined ? undefined : { gone: () => signal, left: () => signal.aborted, charge: () => Promise.resolve() };
  }

  /** The runs worth making on `text`: recognizers whose pattern matches, grouped by the body they send, at most MAX_TRIES_PER_LAYER. */
  private plan(text: string, sample: string): Run[] {
    const runs = new Map<string, Run>();
    for (const recognizer of this.recognizers) {
      if (!recognizer.regex.test(sample)) continue;
      const filled = filledFields(recognizer, text);
      if (recognizer.fill !== undefined && filled === undefined) continue;
      const body = { ...recognizer.body, ...filled };
      const key = `${recognizer.operation.name} ${recognizer.field in body ? '' : recognizer.field} ${JSON.stringify(body)}`;
      const run = runs.get(key);
      if (run !== undefined) run.serves.push(recognizer);
      else if (runs.size < MAX_TRIES_PER_LAYER) runs.set(key, { recognizer, body: recognizer.field in body ? body : { ...body, [recognizer.field]: text }, filled, serves: [recognizer] });
    }
    return [...runs.values()];
  }

  /** Makes `run`: the operation's answer, or undefined when refused or out of budget. */
  private async answerOf(run: Run): Promise<unknown> {
    if (this.budget.runs <= 0 || this.options.signal?.aborted === true) return undefined;
    const { operation } = run.recognizer;
    const json = this.options.json ?? jsonHere;
    try {
      // Written once, where the run's own work is done; its bytes are what the budget counts and what the run gets.
      const bytes = await json.body(operation, run.body);
      if (bytes.byteLength > this.budget.bytes) return undefined;
      // The event loop's turn between tries, as between a recipe's steps.
      if (this.slice.spent()) await this.slice.turn();
      this.budget.runs -= 1;
      this.budget.bytes -= bytes.byteLength;
      return await json.value(operation, await this.executor.run({ operation, bytes, caller: this.caller, requestId: this.options.requestId, deadlineMs: SPECULATIVE_RUN_MS }));
    } catch (error) {
      if (isToolshedError(error)) return undefined;
      throw error;
    }
  }

  /** The layers `run`'s answer confirms: one per kind among the recognizers it serves whose answer patterns match. */
  private layersOf(run: Run, answer: unknown, text: string, after: string | undefined): Layer[] {
    const layers: Layer[] = [];
    for (const recognizer of run.serves) {
      if (layers.some((layer) => layer.recognizer.kind === recognizer.kind) || !answerMatches(recognizer, answer)) continue;
      const layer = { recognizer, answer, confidence: recognizer.confidence, filled: run.filled };
      const output = mainOutputOf(layer);
      // The same operation again only when it unwraps something (Base64 of Base64), not when it
      // re-reads its own answer (a colour into the colour converter gives that colour back).
      if (recognizer.operation.name === after && (typeof output !== 'string' || output === text)) continue;
      const readable = typeof output !== 'string' || output === '' || readableShare(output) >= 0.9;
      layers.push(readable ? layer : { ...layer, confidence: recognizer.confidence * 0.3 });
    }
    return layers;
  }

  /** The confirmed chains for `text`, each as deep as `depth` allows; `after` is the operation that gave `text`. */
  async chains(text: string, depth: number, after?: string): Promise<Layer[][]> {
    const sample = sampleOf(text);
    if (sample === '') return [];
    const found: Layer[][] = [];
    for (const run of this.plan(text, sample)) {
      const answer = await this.answerOf(run);
      if (answer === undefined) continue;
      for (const layer of this.layersOf(run, answer, text, after)) {
        let chain = [layer];
        const output = mainOutputOf(layer);
        // Only a layer that unwraps (its answer is shorter text) is looked into again, as Magic peels encodings.
        if (depth > 1 && typeof output === 'string' && output.length < text.length) {
          const inner = (await this.chains(output, depth - 1, layer.recognizer.operation.name)).sort((a, b) => chainConfidence(b) - chainConfidence(a))[0];
          if (inner !== undefined && chainConfidence(inner) > 0.5) chain = [layer, ...inner];
        }
        found.push(chain);
      }
    }
    return found;
  }
}

/** Kinds no operation reads that `text` has the shape of, each unless a confirmed candidate names that kind at least as surely. */
function namedCandidates(text: string, confirmed: readonly IdentifyCandidate[]): IdentifyCandidate[] {
  const sample = sampleOf(text);
  return NAMED_KINDS.filter((named) => named.pattern.test(sample) && !confirmed.some((candidate) => candidate.kind === named.kind && candidate.confidence >= named.confidence)).map(
    (named) => ({ kind: named.kind, title: named.title, confidence: named.confidence, recipe: { steps: [] }, preview: null, note: named.note }),
  );
}

/**
 * Names what `body.input` is, best first, each with the recipe that decodes it and a preview of its
 * answer; a kind no tool reads comes without steps and with a note. Rejects with the SDK's 400
 * InputError for a request outside its schema.
 */
export async function identify(executor: Executor, body: unknown, options: IdentifyOptions = {}): Promise<IdentifyAnswer> {
  // Async, so a refusal of the request rejects the promise as every other refusal does.
  return identifyChecked(executor, checkIdentifyRequest(body), options);
}

/** {@link identify} of a request {@link checkIdentifyRequest} has passed (the composite checks it first, on the pool when large). */
export async function identifyChecked(executor: Executor, request: IdentifyRequest, options: IdentifyOptions = {}): Promise<IdentifyAnswer> {
  const slice = eventLoopSlice(options.now);
  const recognizers = await recognizersFrom(executor, slice);
  const chains = await new Identifier(executor, recognizers, options, slice).chains(request.input, request.depth);
  const confirmed: IdentifyCandidate[] = chains.map((layers) => ({
    kind: layers[0]!.recognizer.kind,
    title: layers.map((layer) => layer.recognizer.title).join(' → '),
    confidence: Math.round(chainConfidence(layers) * 1000) / 1000,
    recipe: { steps: layers.map((layer, index) => stepOf(layer, index, layers[index - 1])) },
    preview: previewOf(layers[layers.length - 1]!.answer),
  }));
  // Every recipe answered is one the runner accepts as given (a check, not a run: no extra work).
  for (const candidate of confirmed) checkRecipe(executor, { input: request.input, steps: candidate.recipe.steps });
  // Sorting is stable: at equal confidence a candidate the operation confirmed comes before a named one.
  const candidates = [...confirmed, ...namedCandidates(request.input, confirmed)].sort((a, b) => b.confidence - a.confidence);
  return { candidates: candidates.slice(0, request.limit) };
}
