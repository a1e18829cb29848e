/**
 * Errors a handler throws to say "this input cannot be processed". The kernel turns them into HTTP
 * answers. It recognises them by their `isToolshedError` mark, never by `instanceof`, because a
 * third-party plugin may bring its own copy of this package.
 */

/** One offending field of a 400 answer. */
export interface ErrorDetail {
  /** JSON Pointer to the field (`""` for the body itself). */
  path: string;
  /** What is wrong with it, without quoting its value. */
  message: string;
}

/** Base of every error the kernel translates; `status` and `code` become the HTTP answer. */
export class ToolshedError extends Error {
  /** Marks the error for the kernel across module copies. */
  readonly isToolshedError = true as const;
  /**
   * @param status HTTP status the kernel answers with.
   * @param code snake_case machine-readable code (`error.code`).
   * @param message human-readable message (`error.message`); never quote secrets or whole inputs.
   * @param details the offending fields, for 400 answers.
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = 'ToolshedError';
  }
}

/**
 * 400 `validation_failed`: the parameters break a rule the JSON Schema cannot express, such as
 * "exactly one of `text` and `dataBase64`". `details` names every offending field.
 */
export class InputError extends ToolshedError {
  constructor(message: string, details: readonly ErrorDetail[]) {
    super(400, 'validation_failed', message, details);
    this.name = 'InputError';
  }
}

/**
 * 422: the parameters are valid, but the tool cannot process the input (invalid Base64, a regex
 * that timed out). `code` must be declared in the plugin's `errors`; an undeclared code is a bug
 * and answers 500.
 */
export class UnprocessableError extends ToolshedError {
  constructor(code: string, message: string) {
    super(422, code, message);
    this.name = 'UnprocessableError';
  }
}

/** 502 `upstream_error`: a service the tool depends on (a DNS resolver) failed or answered garbage. */
export class UpstreamError extends ToolshedError {
  constructor(message: string) {
    super(502, 'upstream_error', message);
    this.name = 'UpstreamError';
  }
}

/** 504 `upstream_timeout`: a service the tool depends on did not answer in time. */
export class UpstreamTimeoutError extends ToolshedError {
  constructor(message: string) {
    super(504, 'upstream_timeout', message);
    this.name = 'UpstreamTimeoutError';
  }
}

/**
 * 503 `server_busy`: the service has no capacity left for this request right now (the worker
 * queue is full); `Retry-After` tells the client when to come back.
 */
export class ServerBusyError extends ToolshedError {
  /** Extra response headers, set by the kernel. */
  readonly headers = { 'Retry-After': '1' };
  constructor(message = 'The service is busy; retry shortly') {
    super(503, 'server_busy', message);
    this.name = 'ServerBusyError';
  }
}

/** True for any error of this module, whichever copy of the SDK created it. */
export function isToolshedError(value: unknown): value is ToolshedError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ToolshedError>;
  return (
    candidate.isToolshedError === true &&
    typeof candidate.status === 'number' &&
    typeof candidate.code === 'string' &&
    typeof candidate.message === 'string'
  );
}

/** What broke, in terms safe to log: never a value from the request or the answer. */
export interface ContractFault {
  /** The operation, `<group>.<operation>`. */
  readonly operation: string;
  /** A 422 code the plugin does not declare. */
  readonly undeclaredCode?: string;
  /** JSON Pointers where the handler's answer breaks its response schema (at most 10). */
  readonly pointers?: readonly string[];
  /**
   * The same pointers, each with what breaks there in words that never quote the answer's value:
   * `/extra: not declared in the response schema`.
   */
  readonly problems?: readonly string[];
}

/**
 * A plugin broke its own manifest: a handler answered outside its response schema, or threw a 422
 * code its plugin does not declare. The request was fine; the kernel answers 500 and logs `fault`.
 */
export class ContractBreach extends Error {
  /** Marks the error across module copies and worker threads. */
  readonly isContractBreach = true as const;
  constructor(readonly fault: ContractFault) {
    super(
      fault.undeclaredCode === undefined
        ? `${fault.operation} returned a response that breaks its schema: ${(fault.problems ?? fault.pointers ?? []).join('; ')}`
        : `${fault.operation} threw the undeclared error code "${fault.undeclaredCode}"`,
    );
    this.name = 'ContractBreach';
  }
}

/** The fault of a {@link ContractBreach} from any copy of the SDK (or carried back from a worker). */
export function contractFaultOf(value: unknown): ContractFault | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fault = (value as { fault?: unknown }).fault;
  return typeof fault === 'object' && fault !== null && typeof (fault as ContractFault).operation === 'string' ? (fault as ContractFault) : undefined;
}
