/** The state the HTTP door's middleware shares on `ctx.state`, and what a front door plugs in. */
import type { Middleware, ParameterizedContext } from 'koa';
import type { Caller, OperationInfo } from '../host/index.js';

/** A path the HTTP door answers. */
export interface Route {
  /** The one method it accepts (HEAD is allowed with GET). */
  readonly method: 'GET' | 'POST';
  /** Public routes (health) skip authentication and rate limiting. */
  readonly public: boolean;
  /** The operation behind a POST route, as the executor listed it: handed back to `run` as it is. */
  readonly operation?: OperationInfo;
  /** The precomputed JSON answer of a GET route. */
  readonly json?: string;
  /** A front door's own answer, after authentication, the rate limit and the method check. */
  readonly respond?: (ctx: KernelContext) => Promise<void>;
  /** The door answers a request over its rate limit itself: see DoorRoute. */
  readonly answersOverLimit?: boolean;
}

export interface KernelState {
  requestId: string;
  /** The headers the door adds to the answer, as `[name, value, …]`: set up by the outermost middleware (kernel/http/answer.ts). */
  headers: string[];
  /** A small JSON answer and its size in bytes, written with the headers in one call (kernel/http/answer.ts). */
  answer?: string | Buffer;
  answerBytes?: number | undefined;
  /** The configured name of the request's API key; undefined for anonymous requests. */
  apiKey?: string;
  route?: Route;
  /** Set when the Authorization header is present but not a configured key; answered after the rate limit. */
  authFailure?: Error;
  /** What the rate limit counted this request under (`ip:…`, `key:…`) and its limit: what `charge` counts more against. */
  limitKey?: string;
  limitMax?: number;
  /** Set instead of refusing, on a route that answers over its limit itself: the 429 it would have thrown (the request is counted). */
  overLimit?: Error;
}

/** Every request's context is also the executor's Caller: `gone()`, `left()` and `charge()` live on Koa's context prototype (kernel/http/caller.ts). */
export type KernelContext = ParameterizedContext<KernelState, Caller>;
export type KernelMiddleware = Middleware<KernelState, Caller>;

/** The media type of every answer with a body. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A front door's path, answered behind the HTTP door's checks like an operation's. */
export interface DoorRoute {
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly respond: (ctx: KernelContext) => Promise<void>;
  /**
   * Past the rate limit, the request still reaches `respond` (counted, its RateLimit headers set),
   * with the 429 it would have got on `ctx.state.overLimit`: the door words the refusal in its own
   * protocol, or throws it.
   */
  readonly answersOverLimit?: boolean;
}

/**
 * What a front door plugs into the HTTP service; the composition root (service/) gives the HTTP
 * door a list of them, so it never imports one.
 */
export interface FrontDoor {
  /** Answers before authentication and the rate limit (the browser pages): calls `next()` for anything else. */
  readonly pages?: KernelMiddleware;
  /** Paths answered after authentication, the rate limit and the method check. */
  readonly routes?: readonly DoorRoute[];
}
