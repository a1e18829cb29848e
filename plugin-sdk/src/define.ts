/**
 * The manifest API: `definePlugin` and `defineOperation`. A manifest is plain data plus handler
 * functions; it is checked eagerly here and again by the kernel when it loads (with the kernel's
 * own copy of these rules), so a malformed plugin fails loudly instead of being skipped.
 */
import semver from './semver.js';
import type { Static, TObject, TSchema } from 'typebox';
import { compileSchema } from './validation.js';
import { findOpenObjects, findUnboundedFields } from './schema-rules.js';
import { checkFan, defaultProblems, fanProblem, UnboundedSchema } from './check-cost.js';
import { schemaKeywordProblems } from './schema-keywords.js';
import { SDK_VERSION } from './version.js';
import type { RunInWorker } from './worker-errors.js';
import { MAX_PLUGIN_RECOGNIZERS, recognitionProblems, type OperationIo, type Recognizer } from './recognizers.js';

/** With `cost: 'superlinear'` and `offload: 'auto'`, bodies larger than this many bytes run on the pool. */
export const SUPERLINEAR_OFFLOAD_BYTES = 512;

/** What a handler gets besides its input: never Koa's context, headers or status codes. */
export interface OperationContext<Config = unknown> {
  /** Aborted when the client goes away or the kernel gives up; pass it to fetch() and workers. */
  readonly signal: AbortSignal;
  /** The plugin's configuration section, validated, with its defaults filled in. */
  readonly config: Config;
  /** The current time; injectable so tests are exact. */
  now(): Date;
  /**
   * Runs an exported function of one of the plugin's modules off the main thread, under a deadline
   * (see {@link RunInWorker}): the host's worker threads in the service, where a CPU loop or a
   * catastrophic regex costs one thread and one budget, never the event loop.
   */
  readonly runInWorker: RunInWorker;
}

/** A request/response pair shown in the OpenAPI document and replayed by the contract test. */
export interface OperationExample<Response = unknown> {
  /** A short name for the example. */
  readonly title?: string;
  /** The request body as a client sends it (defaults may be left out). */
  readonly body: Readonly<Record<string, unknown>>;
  /** The exact response the handler gives for `body` (one possible response when `exact` is false). */
  readonly response: Response;
  /**
   * False for random output (dice, passwords): `response` is one possible answer, and the contract
   * test checks the live answer against the response schema instead of comparing it. Default true.
   */
  readonly exact?: boolean;
}

/**
 * One operation: its schemas, examples and handler. Build it with {@link defineOperation}.
 *
 * The variance of each type parameter is written out (`out`, `out`, `in`: what TypeScript measures
 * for it) so that TypeScript does not measure it in every program that compares two definitions:
 * measuring it compares TypeBox's `Static` of marker types, about 1.3 million type instantiations
 * and ten seconds of `tsc` for a one-operation plugin.
 */
export interface OperationDefinition<out Body extends TObject = TObject, out Response extends TSchema = TSchema, in Config = unknown> {
  /** One line for the OpenAPI document. */
  readonly summary: string;
  /**
   * The main input and output fields (base64/decode: `{ input: 'base64', output: 'text' }`). A recipe
   * step that does not set its main input gets the previous value there, and hands its main output on.
   */
  readonly io?: OperationIo;
  /** How identify recognises input this operation takes (needs `io.input`); see {@link Recognizer}. */
  readonly recognizers?: readonly Recognizer[];
  /** Longer explanation (Markdown) for the OpenAPI document. */
  readonly description?: string;
  /**
   * Request body schema. Every object in it must be closed (`additionalProperties: false`).
   * Give defaulted fields a `default` and leave `Type.Optional` off: the kernel fills them in,
   * so the handler sees them as present, and the wire schema marks them optional.
   */
  readonly body: Body;
  /** Response schema; objects closed as well, because responses carry only the listed fields. */
  readonly response: Response;
  /** At least one example; each is replayed against the handler by the contract test. */
  readonly examples: readonly OperationExample<Static<Response>>[];
  /**
   * The plugin's 422 codes (keys of its `errors`) this operation may throw. The OpenAPI document
   * lists only these under the operation, and a handler throwing any other code is a 500 (a bug).
   * Left out, the operation may throw every code of the plugin; a plugin with one operation needs
   * no list.
   */
  readonly errors?: readonly string[];
  /** True when the handler calls an upstream service and may answer 502/504. */
  readonly upstream?: boolean;
  /**
   * False when the same body can give a different answer: the handler draws random values or reads
   * the clock (`context.now()`). Left out, the answer is a function of the body alone, unless
   * `upstream` is set. Agents read it (the MCP tool's `idempotentHint`) to know whether an answer
   * may be reused.
   */
  readonly deterministic?: boolean;
  /**
   * True, with `deterministic: false`, when the clock (`context.now()`) is the only thing besides the
   * body that changes the answer: no random values, no upstream. The tool pages then answer as the
   * person types, as for a deterministic operation, and take an answer as out of date once a time it
   * lists has passed.
   */
  readonly readsClock?: boolean;
  /**
   * Where the kernel runs the request's work (parse, validate, handler, serialize). `auto` (the
   * default): on the shared worker pool when the body is larger than the operator's
   * `workers.offloadBytes`, else on the main thread. `always`: on the pool at any size (costly work
   * on small input). `never`: on the main thread, for handlers that keep state of their own (a
   * cache) or call upstreams (implied by `upstream`). A handler that calls `context.runInWorker`
   * works either way: on a pool worker it gets a nested pool of one thread.
   */
  readonly offload?: 'auto' | 'always' | 'never';
  /**
   * `linear`: the handler's work grows with the body at a few nanoseconds per byte and no more
   * (encoding, hashing). With `offload: 'auto'` the kernel then keeps bodies up to the operator's
   * `workers.linearOffloadBytes` (256 KiB) on the main thread instead of `workers.offloadBytes`
   * (64 KiB): below that size the whole request costs the main thread less than handing it to the
   * pool would. Leave it out for anything a body can make slower than linear (patterns, nesting,
   * sorting).
   *
   * `superlinear`: a small body can cost far more than its size (a diff's work grows with how the
   * texts differ, not with their length). With `offload: 'auto'` the kernel then runs bodies over
   * {@link SUPERLINEAR_OFFLOAD_BYTES} (512) on the pool, the whole request (parse, handler, the
   * answer's check and writing) as for any large body, and keeps the small ones on the main thread,
   * where a tool page answers them as the person types.
   */
  readonly cost?: 'linear' | 'superlinear';
  /** Pure function of its input: returns the response object or throws an SDK error. */
  readonly handler: (input: Static<Body>, context: OperationContext<Config>) => Static<Response> | Promise<Static<Response>>;
}

/** The plugin's configuration: one top-level section of the operator's config file. */
export interface PluginConfigDefinition<Schema extends TObject = TObject> {
  /** Name of the top-level key in the config file (for example `regex`). */
  readonly section: string;
  /** Schema of the section; give every key a default so the plugin runs without configuration. */
  readonly schema: Schema;
}

/**
 * Operation name to operation, as a manifest holds them. Handlers are contravariant in their input;
 * `any` lets operations with different schemas share one map.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OperationMap = Readonly<Record<string, OperationDefinition<any, any, any>>>;

/**
 * The manifest a plugin's `index` exports as default. Build it with {@link definePlugin}, which
 * keeps the type of each operation, so `invoke()` knows what each one answers.
 */
export interface PluginDefinition<Operations extends OperationMap = OperationMap> {
  /** URL segment and folder name, kebab-case (`hash-generator`). */
  readonly group: string;
  /** The SDK semver range this plugin was built for (for example `^1.0.0`). */
  readonly sdk: string;
  /** One line describing the group, for the OpenAPI document. */
  readonly summary?: string;
  /** The tool's name for people (`JWT decoder`), shown by the tool pages; left out, the group name. */
  readonly title?: string;
  /** Where the list of tools at `/` puts it; left out, under "Other tools". */
  readonly category?: PluginCategory;
  /** Words people search for that the title and summary lack (`sha256`, `epoch`, `cidr`), lower case. */
  readonly keywords?: readonly string[];
  /** Every 422 code the handlers may throw, with a description (listed in docs/errors.md). */
  readonly errors?: Readonly<Record<string, string>>;
  /** Optional configuration section. */
  readonly config?: PluginConfigDefinition;
  /** Operation name (URL segment, kebab-case) to operation. */
  readonly operations: Operations;
  /** Called once on graceful shutdown (terminate workers, close sockets). */
  readonly close?: () => Promise<void> | void;
  /**
   * Called once when the plugin is loaded (by the service at start-up, and by each pool worker
   * that runs it), to build what the handlers would otherwise build on first use (lookup tables,
   * segmenters), so the first request is answered as fast as the hundredth.
   */
  readonly warm?: () => Promise<void> | void;
}

/** The handful of headings the list of tools at `/` groups the plugins under, in the list's order. */
export const PLUGIN_CATEGORIES = ['Encoding', 'Text', 'Developer', 'Security', 'Network', 'Dates and time', 'Numbers and money', 'Images and colour'] as const;
export type PluginCategory = (typeof PLUGIN_CATEGORIES)[number];

/** A checked manifest, as the kernel loads it. */
export type Plugin<Operations extends OperationMap = OperationMap> = PluginDefinition<Operations> & { readonly kind: 'toolshed-plugin' };

const kebabCase = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const snakeCase = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOO_DEEP = 'nests too deep to be checked';

function schemaProblems(where: string, schema: unknown, mustBeObject: boolean): string[] {
  try {
    return shapeProblems(where, schema, mustBeObject);
  } catch (error) {
    // Each walk recurses once a level: a schema thousands of levels deep (a hand-written manifest) overflows the stack.
    if (error instanceof RangeError) return [`${where} ${TOO_DEEP}`];
    throw error;
  }
}

function shapeProblems(where: string, schema: unknown, mustBeObject: boolean): string[] {
  if (!isRecord(schema)) return [`${where} is not a schema`];
  if (mustBeObject && schema.type !== 'object') return [`${where} must be an object schema (Type.Object)`];
  let fan: number;
  try {
    fan = checkFan(schema);
  } catch (error) {
    // First: the walks below would not end on a schema that contains itself.
    if (error instanceof UnboundedSchema) return [`${where} ${error.message}`];
    throw error;
  }
  const problems = findOpenObjects(schema).map((pointer) => `${where} ${pointer} must set additionalProperties`);
  const tooWide = fanProblem(fan);
  if (tooWide !== undefined) problems.push(`${where} ${tooWide}`);
  problems.push(...schemaKeywordProblems(schema).map((problem) => `${where} ${problem}`));
  try {
    compileSchema(schema as TSchema);
  } catch (error) {
    problems.push(`${where} does not compile: ${(error as Error).message}`);
  }
  return problems;
}

/**
 * Every way the examples break the operation's schemas: each body (defaults filled) against the
 * request schema, each response against the response schema, named by example and JSON Pointer.
 * Examples are published in the OpenAPI document and tried in the browser page, so a wrong one
 * misleads every reader.
 */
function exampleProblems(where: string, operation: Record<string, unknown>, examples: readonly Record<string, unknown>[]): string[] {
  let body: ReturnType<typeof compileSchema>;
  let response: ReturnType<typeof compileSchema>;
  try {
    body = compileSchema(operation.body as TSchema);
    response = compileSchema(operation.response as TSchema);
  } catch {
    return []; // The schema problem is reported already.
  }
  const problems: string[] = [];
  examples.forEach((example, index) => {
    const filled = body.withDefaults(structuredClone(example.body));
    for (const problem of body.problems(filled)) problems.push(`${where}: example ${index + 1} body ${problem.path || '/'}: ${problem.message}`);
    for (const problem of response.problems(example.response)) problems.push(`${where}: example ${index + 1} response ${problem.path || '/'}: ${problem.message}`);
  });
  return problems;
}

/** Every way an operation's `errors` list is not a list of distinct codes the plugin declares. */
function errorListProblems(where: string, list: unknown, pluginCodes: unknown): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [`${where}: errors must be a list of the plugin's error codes`];
  const known = isRecord(pluginCodes) ? pluginCodes : {};
  const problems: string[] = [];
  list.forEach((code, index) => {
    if (typeof code !== 'string' || !Object.hasOwn(known, code)) problems.push(`${where}: errors[${index}] ${JSON.stringify(code)} is not declared in the plugin's errors`);
    else if (list.indexOf(code) !== index) problems.push(`${where}: errors lists "${code}" twice`);
  });
  return problems;
}

/** What the kernel checks beyond the rules every manifest follows. */
export interface PluginCheckOptions {
  /**
   * Every string of a body schema needs `maxLength` and every array `maxItems`, unless it says why
   * not with `x-unbounded`. The kernel asks this of plugins from `plugins.dirs` and `plugins.packages`.
   */
  readonly requireBounds?: boolean;
}

function operationProblems(name: string, operation: unknown, pluginCodes: unknown, options: PluginCheckOptions): string[] {
  const where = `operation "${name}"`;
  if (!kebabCase.test(name)) return [`${where}: the name must be kebab-case`];
  if (!isRecord(operation)) return [`${where} is not an object`];
  const problems: string[] = errorListProblems(where, operation.errors, pluginCodes);
  if (typeof operation.summary !== 'string' || operation.summary === '') problems.push(`${where}: summary is missing`);
  if (typeof operation.handler !== 'function') problems.push(`${where}: handler is not a function`);
  if (operation.deterministic !== undefined && typeof operation.deterministic !== 'boolean') problems.push(`${where}: deterministic must be true or false`);
  if (operation.readsClock !== undefined && (operation.readsClock !== true || operation.deterministic !== false)) problems.push(`${where}: readsClock must be true, beside deterministic: false, or left out`);
  if (operation.offload !== undefined && !['auto', 'always', 'never'].includes(operation.offload as string)) {
    problems.push(`${where}: offload must be "auto", "always" or "never"`);
  }
  if (operation.cost !== undefined && operation.cost !== 'linear' && operation.cost !== 'superlinear') problems.push(`${where}: cost must be "linear", "superlinear" or left out`);
  const bodyProblems = schemaProblems(`${where}: body`, operation.body, true);
  problems.push(...bodyProblems);
  // Defaults are walked only in a schema the walks above could take whole.
  if (bodyProblems.length === 0) problems.push(...defaultProblems(operation.body).map((problem) => `${where}: body ${problem}`));
  if (options.requireBounds === true && isRecord(operation.body) && !bodyProblems.some((problem) => problem.endsWith(TOO_DEEP))) {
    problems.push(...findUnboundedFields(operation.body).map((problem) => `${where}: body ${problem}`));
  }
  problems.push(...schemaProblems(`${where}: response`, operation.response, false));
  problems.push(...recognitionProblems(where, operation));
  const examples = operation.examples;
  if (!Array.isArray(examples) || examples.length === 0) problems.push(`${where}: at least one example is required`);
  else if (!examples.every((example) => isRecord(example) && isRecord(example.body) && 'response' in example)) {
    problems.push(`${where}: every example needs a body object and a response`);
  } else if (problems.length === 0) problems.push(...exampleProblems(where, operation, examples as Record<string, unknown>[]));
  return problems;
}

/**
 * Every way `value` fails to be a loadable manifest for an SDK of version `sdkVersion`; empty when
 * it is fine. The kernel calls this with its own SDK version, whatever copy built the plugin.
 */
export function checkPlugin(value: unknown, sdkVersion: string = SDK_VERSION, options: PluginCheckOptions = {}): string[] {
  if (!isRecord(value)) return ['the default export is not a plugin manifest (use definePlugin)'];
  // A manifest from definePlugin (frozen) was checked when it was defined; the kernel checks it again
  // at load with the same arguments for a built-in, a walk of every schema at every start. Same answer, once.
  const key = `${sdkVersion}|${options.requireBounds === true}`;
  const known = Object.isFrozen(value) ? checked.get(value)?.get(key) : undefined;
  if (known !== undefined) return [...known];
  const problems = manifestProblems(value, sdkVersion, options);
  if (Object.isFrozen(value)) {
    const byOptions = checked.get(value) ?? new Map<string, readonly string[]>();
    checked.set(value, byOptions.set(key, problems));
  }
  return [...problems];
}

/** Checks already made, by manifest and by SDK version and options. */
const checked = new WeakMap<object, Map<string, readonly string[]>>();

function manifestProblems(value: Record<string, unknown>, sdkVersion: string, options: PluginCheckOptions): string[] {
  const problems: string[] = [];
  if (value.kind !== 'toolshed-plugin') problems.push('the manifest was not made with definePlugin');
  if (typeof value.group !== 'string' || !kebabCase.test(value.group)) problems.push('group must be a kebab-case name');
  if (typeof value.sdk !== 'string' || semver.validRange(value.sdk) === null) {
    problems.push('sdk must be a semver range such as ^1.0.0');
  } else if (!semver.satisfies(sdkVersion, value.sdk)) {
    problems.push(`the plugin needs SDK ${value.sdk}, this kernel has ${sdkVersion}`);
  }
  if (value.errors !== undefined) {
    if (!isRecord(value.errors)) problems.push('errors must map codes to descriptions');
    else {
      for (const [code, text] of Object.entries(value.errors)) {
        if (!snakeCase.test(code) || typeof text !== 'string') problems.push(`error code "${code}" must be snake_case with a description`);
      }
    }
  }
  if (value.config !== undefined) {
    const config = value.config;
    if (!isRecord(config) || typeof config.section !== 'string' || !/^[a-zA-Z][a-zA-Z0-9]*$/.test(config.section)) {
      problems.push('config.section must be a plain name');
    } else problems.push(...schemaProblems('config.schema', config.schema, true));
  }
  if (value.title !== undefined && (typeof value.title !== 'string' || value.title === '' || value.title.length > 60)) problems.push('title must be a short text (1–60 characters)');
  if (value.category !== undefined && !(PLUGIN_CATEGORIES as readonly unknown[]).includes(value.category)) problems.push(`category must be one of ${PLUGIN_CATEGORIES.join(', ')}`);
  if (value.keywords !== undefined && (!Array.isArray(value.keywords) || !value.keywords.every((word) => typeof word === 'string' && word !== '' && word === word.toLowerCase()))) {
    problems.push('keywords must be a list of lower-case words');
  }
  if (value.close !== undefined && typeof value.close !== 'function') problems.push('close must be a function');
  if (value.warm !== undefined && typeof value.warm !== 'function') problems.push('warm must be a function');
  const operations = value.operations;
  if (!isRecord(operations) || Object.keys(operations).length === 0) problems.push('operations must hold at least one operation');
  else problems.push(...operationsProblems(operations, value.errors, options));
  return problems;
}

/**
 * Most operations one plugin may declare. Each tool page lists the operations an answer may be
 * sent to, weighing every operation against every other; 3,000 operations in one plugin made the
 * first page request hold the main thread 23 s and the pages 0.4 GB. The built-ins have at most 6.
 */
export const MAX_OPERATIONS = 64;

function operationsProblems(operations: Record<string, unknown>, errors: unknown, options: PluginCheckOptions): string[] {
  const entries = Object.entries(operations);
  // Refused by its count alone: walking thousands of schemas first would cost the start as much.
  if (entries.length > MAX_OPERATIONS) return [`operations: at most ${MAX_OPERATIONS} in one plugin (it declares ${entries.length})`];
  const problems = entries.flatMap(([name, operation]) => operationProblems(name, operation, errors, options));
  const recognizers = entries.reduce((sum, [, operation]) => sum + (isRecord(operation) && Array.isArray(operation.recognizers) ? operation.recognizers.length : 0), 0);
  if (recognizers > MAX_PLUGIN_RECOGNIZERS) problems.push(`recognizers: at most ${MAX_PLUGIN_RECOGNIZERS} in one plugin, over all its operations (it declares ${recognizers})`);
  return problems;
}

/**
 * `Result` with every property that `Expected` lacks, at any depth, turned into `never`: a handler
 * returning a field its response schema does not list then fails to compile, instead of failing
 * with a 500 at run time.
 */
export type NoExtraFields<Result, Expected> = Result extends object
  ? Expected extends object
    ? { [Key in keyof Result]: Key extends keyof Expected ? NoExtraFields<Result[Key], Expected[Key]> : never }
    : Result
  : Result;

/** A handler whose answer has exactly the fields of `Response` (see {@link NoExtraFields}). */
export type ExactHandler<Body extends TObject, Response extends TSchema, Config, Result> = (
  input: NoInfer<Static<Body>>,
  context: OperationContext<Config>,
) => (Result & NoExtraFields<Result, NoInfer<Static<Response>>>) | Promise<Result & NoExtraFields<Result, NoInfer<Static<Response>>>>;

/**
 * Declares one operation. Returns the definition unchanged; its job is to infer the handler's
 * input and output types from the schemas, and to refuse at compile time an answer with a field
 * the response schema lacks. `Body` and `Response` are inferred from `body` and `response` only:
 * the `Static` of them in the examples and the handler is `NoInfer`, checked against what the
 * schemas give. Inferring a schema back from a value through `Static` would check nothing more and
 * costs a plugin's `tsc` about ten seconds (TypeScript walks every branch of TypeBox's `Static`).
 */
export function defineOperation<Body extends TObject, Response extends TSchema, Config = unknown, Result extends Static<Response> = Static<Response>>(
  definition: Omit<OperationDefinition<Body, Response, Config>, 'handler' | 'examples'> & {
    readonly examples: readonly OperationExample<NoInfer<Static<Response>>>[];
    readonly handler: ExactHandler<Body, Response, Config, Result>;
  },
): OperationDefinition<Body, Response, Config> {
  return definition as OperationDefinition<Body, Response, Config>;
}

/**
 * Declares a plugin and checks it at once: a malformed manifest throws here, at import time, with
 * every problem listed.
 */
export function definePlugin<Operations extends OperationMap>(definition: PluginDefinition<Operations>): Plugin<Operations> {
  const plugin: Plugin<Operations> = Object.freeze({ ...definition, kind: 'toolshed-plugin' as const });
  const problems = checkPlugin(plugin);
  if (problems.length > 0) {
    throw new Error(`Invalid plugin "${String(definition.group)}":\n- ${problems.join('\n- ')}`);
  }
  return plugin;
}
