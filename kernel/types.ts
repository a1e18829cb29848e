/** The state the kernel's middleware shares on `ctx.state`. */
import type { Middleware, ParameterizedContext } from 'koa';
import type { DispatchLimits } from './middleware/dispatch.js';
import type { RegisteredOperation } from './registry.js';

/** A path the kernel answers. */
export interface Route {
  /** The one method it accepts (HEAD is allowed with GET). */
  readonly method: 'GET' | 'POST';
  /** Public routes (health) skip authentication and rate limiting. */
  readonly public: boolean;
  /** The operation behind a POST route. */
  readonly operation?: RegisteredOperation;
  /** The precomputed JSON answer of a GET route. */
  readonly json?: string;
  /**
   * A front door of its own behind the kernel's checks (MCP at /mcp): it answers after
   * authentication, the rate limit and the method check, with the kernel's limits to read and run by.
   */
  readonly respond?: (ctx: KernelContext, limits: DispatchLimits) => Promise<void>;
}

export interface KernelState {
  requestId: string;
  /** The configured name of the request's API key; undefined for anonymous requests. */
  apiKey?: string;
  route?: Route;
  /** Set when the Authorization header is present but not a configured key; answered after the rate limit. */
  authFailure?: Error;
  body?: unknown;
}

export type KernelContext = ParameterizedContext<KernelState>;
export type KernelMiddleware = Middleware<KernelState>;

/** The media type of every answer with a body. */
export const JSON_TYPE = 'application/json; charset=utf-8';
