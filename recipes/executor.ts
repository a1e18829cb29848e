/**
 * The executor as recipes and identify see it: the one way every front door runs an operation.
 * These types mirror `kernel/executor.ts` (the lead's interface) so this folder never imports the
 * request path; once both are on main, this file re-exports the kernel's types instead.
 */
import type { TSchema } from '@toolshed/plugin-sdk';

/** What a front door may know about an operation: data only (third-party manifests arrive as data). */
export interface OperationInfo {
  readonly id: string;
  /** 'group/operation', the URL tail after /v1/. */
  readonly name: string;
  readonly group: string;
  readonly operation: string;
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** As a client sees it (defaulted fields optional). */
  readonly requestSchema: TSchema;
  readonly responseSchema: TSchema;
  readonly examples: readonly { title?: string; body: Record<string, unknown>; response: unknown; exact?: boolean }[];
  readonly errors: Readonly<Record<string, string>>;
  /** Calls a network upstream (DNS, currency): never run speculatively. */
  readonly upstream: boolean;
  /** The manifest's operation definition as data: `io` and `recognizers` are read from here. */
  readonly definition: unknown;
}

export interface RunRequest {
  readonly operation: string;
  /** The body as a JSON value, or `{ bytes }`: raw JSON bytes. */
  readonly body: unknown;
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  /** A cap on this run's time in ms, below the operation's own deadline. */
  readonly deadlineMs?: number;
}

export interface RunAnswer {
  /** The answer's JSON text, already checked against the response schema and the answer cap. */
  readonly json: string;
  /** Its UTF-8 size in bytes. */
  readonly bytes: number;
  /** The answer parsed (once). */
  value(): unknown;
}

export interface Executor {
  operations(): readonly OperationInfo[];
  find(name: string): OperationInfo | undefined;
  nearest(name: string): string | undefined;
  /** Rejects with the SDK's ToolshedError (status, code, message, details) for every refusal. */
  run(request: RunRequest): Promise<RunAnswer>;
}
