/**
 * What every door sees of the executor: operations as data, a run's request, the executor's
 * interface, and the composite operations the composition root adds (kernel/host/composite.ts).
 * The implementation is kernel/host/executor.ts.
 */
import type { OperationDefinition, TSchema } from '@toolshed/plugin-sdk';
import type { Answer } from './answer.js';
import type { BodyBytes } from './body-bytes.js';
import type { Caller } from './caller.js';
import type { HeldAnswers } from './held-answers.js';

/** What a front door may know about an operation: data only (a contained plugin's manifest arrives as data). */
export interface OperationInfo {
  /** `base64.encode`. */
  readonly id: string;
  /** `base64/encode`: how every door names it. */
  readonly name: string;
  readonly group: string;
  /** The group's one-line summary from its manifest. */
  readonly groupSummary?: string;
  /** The group's words for people from its manifest: a display title, a category, search keywords. */
  readonly groupTitle?: string;
  readonly groupCategory?: string;
  readonly groupKeywords?: readonly string[];
  readonly operation: string;
  readonly summary: string;
  readonly description?: string;
  /** The request schema as a client sees it (defaulted fields optional). */
  readonly requestSchema: TSchema;
  readonly responseSchema: TSchema;
  readonly examples: readonly { readonly title?: string; readonly body: Readonly<Record<string, unknown>>; readonly response: unknown; readonly exact?: boolean }[];
  /** The 422 codes it may answer, with what each means. */
  readonly errors: Readonly<Record<string, string>>;
  /** It calls a network upstream (DNS, currency rates): never run speculatively. */
  readonly upstream: boolean;
  /** The manifest's definition of the operation, as data: no handler (new manifest fields appear here). */
  readonly definition: Omit<OperationDefinition, 'handler'>;
  /** Served through other operations (kernel/host/composite.ts), not by a plugin: it may answer any refusal theirs may. */
  readonly composite?: boolean;
  /** Where its work runs as the manifest chose it (`always` for a contained plugin, whose work runs in its own workers); `auto` when left out. */
  readonly offload?: 'auto' | 'always' | 'never';
}

/** One run: the operation and its body, as a JSON value or as the raw JSON bytes a client sent. */
export interface RunRequest {
  /** `group/operation`, or the operation as the executor listed it (a door that resolved it already). */
  readonly operation: string | OperationInfo;
  /** The body as a JSON value (serialized once here, to size it). */
  readonly body?: unknown;
  /**
   * The body as received: JSON bytes, or the chunks they arrived in (moved to the pool unjoined),
   * parsed here or on the pool by the API's rules. Wins over `body`.
   */
  readonly bytes?: BodyBytes;
  /** Who asked: told when it goes away, charged for what a composite costs. None: a caller that never leaves and has no limit. */
  readonly caller?: Caller;
  /** Names the run in log lines (never the body). */
  readonly requestId?: string;
  /** A cap on this run's time below the operation's own deadline (what a recipe has left). */
  readonly deadlineMs?: number;
  /**
   * Nobody reads the answer (a recipe's step whose answer no later step reads and the recipe does
   * not keep): it is checked and held to the answer cap as any other, but never written, so its
   * bytes are never made; the run answers an empty body of 0 bytes.
   */
  readonly unread?: boolean;
}


/** Operations by name, without running them: what a recipe's check and identify's search read. */
export interface OperationCatalog {
  /** Every enabled operation: the plugins' in the registry's order, then the composites. */
  operations(): readonly OperationInfo[];
  /** The operation named `group/operation`, or undefined. */
  find(name: string): OperationInfo | undefined;
  /** The nearest known `group/operation` to a mistyped one, or undefined. */
  nearest(name: string): string | undefined;
}

/** See the module comment. */
export interface Executor extends OperationCatalog {
  /** Runs one operation; rejects with a ToolshedError (status, code, message, details) for every refusal. */
  run(request: RunRequest): Promise<Answer>;
}

/**
 * The JSON a composite writes and reads between the operations it runs, each done where the
 * executor does the work of a request to that operation: on the pool when large
 * (kernel/host/composite-json.ts). Either way the same bytes and values come out.
 */
export interface CompositeJson {
  /** `value`'s JSON text as JSON.stringify writes it, in UTF-8: the body of a run of `operation`. */
  body(operation: OperationInfo, value: unknown): Promise<Uint8Array>;
  /** `answer`, an answer of `operation`, parsed. */
  value(operation: OperationInfo, answer: Answer): Promise<unknown>;
}

/**
 * What a composite's run is given: its caller's request (caller, request id, deadline), the ledger
 * of the answers it holds at once, counted against the answer budget and a cap per run, and the
 * JSON work between its runs, placed by size (kernel/host/composite-json.ts).
 */
export type CompositeRequest = Omit<RunRequest, 'operation' | 'body' | 'bytes'> & { readonly held: HeldAnswers; readonly json: CompositeJson };

/** One composite operation: what every door shows of it, and how it runs. */
export interface CompositeOperation {
  /** As for a plugin's operation; `composite` is set by the host. */
  readonly info: Omit<OperationInfo, 'composite'>;
  /**
   * Checks the parsed body into what {@link run} takes, or throws the SDK's 400: `here` on the main
   * thread for a small body; for a large one (over `workers.offloadBytes`) the same function, as the
   * export `exportName` of `module`, on the pool, with the plugins' operations as data, so the main
   * thread only moves the body's bytes. What it returns must survive a structured clone; a byte
   * array in it that is the whole of its own buffer moves to the main thread rather than being
   * copied, so the export may only return such arrays that it made. Without it, `run` gets the
   * parsed body as it is.
   */
  readonly check?: {
    readonly here: (body: unknown, operations: OperationCatalog) => unknown;
    readonly module: URL;
    readonly exportName: string;
    /** What the export gets as its third argument, copied to the pool with each large body: small data that says which composite (a saved recipe's steps). */
    readonly data?: unknown;
  };
  /**
   * Runs it on `body`: what `check` made of the parsed JSON value, or that value when there is no check.
   * `operations` runs the plugins' operations only: a composite is never a step of another, so what
   * one request can set off stays bounded by its own body.
   */
  run(body: unknown, request: CompositeRequest, operations: Executor): Promise<Answer>;
}
