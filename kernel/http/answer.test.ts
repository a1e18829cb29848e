// How the HTTP door writes an answer: a small JSON answer with the list of headers in one
// writeHead, a header set on the response winning over the list's, the list's entries replaced and
// not repeated. Checked on a real ServerResponse with its writeHead and setHeader counted.
import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { answerJson, listedHeader, setListedHeader, startHeaders, writeAnswer } from './answer.js';
import { JSON_TYPE, type KernelContext } from './types.js';

/** The parts of Koa's context the writer reads, over a real response, with its header calls recorded. */
function context(method = 'POST'): { ctx: KernelContext; calls: string[]; heads: unknown[][] } {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  const res = new ServerResponse(req);
  const calls: string[] = [];
  const heads: unknown[][] = [];
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (calls.push(name), setHeader(name, value));
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => (heads.push(args.map((arg) => (Array.isArray(arg) ? [...arg] : arg))), writeHead(...args))) as typeof res.writeHead;
  let body: unknown;
  const ctx = {
    req,
    res,
    method,
    state: {},
    status: 404,
    writable: true,
    respond: true,
    get body() {
      return body;
    },
    set body(value: unknown) {
      body = value;
    },
  } as unknown as KernelContext;
  startHeaders(ctx);
  return { ctx, calls, heads };
}

const EVERY = ['X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store', 'Access-Control-Allow-Origin', '*'];

describe('the HTTP door\'s answer writer', () => {
  it('writes a small JSON answer with the list of headers in one writeHead and no setHeader', () => {
    const { ctx, calls, heads } = context();
    setListedHeader(ctx, 'X-Request-Id', 'abc');
    answerJson(ctx, '{"é":1}', 201);
    writeAnswer(ctx);
    assert.deepEqual(calls, []);
    assert.equal(heads.length, 1);
    const [status, list] = heads[0] as [number, string[]];
    assert.equal(status, 201);
    assert.deepEqual(list.slice(0, 6), EVERY);
    // '{"é":1}' is 7 characters and 8 bytes (é is two in UTF-8).
    assert.deepEqual(list.slice(-6), ['X-Request-Id', 'abc', 'Content-Type', JSON_TYPE, 'Content-Length', '8']);
    assert.equal(ctx.respond, false);
    assert.equal(ctx.res.headersSent, true);
  });

  it('lets a header set on the response win over the list\'s, and keeps both kinds', () => {
    const { ctx, heads } = context();
    ctx.res.setHeader('Cache-Control', 'public, max-age=60');
    ctx.res.setHeader('Retry-After', '1');
    answerJson(ctx, '{}', 429);
    writeAnswer(ctx);
    assert.deepEqual(heads, [[429]]);
    assert.equal(ctx.res.getHeader('Cache-Control'), 'public, max-age=60');
    assert.equal(ctx.res.getHeader('Retry-After'), '1');
    assert.equal(ctx.res.getHeader('X-Content-Type-Options'), 'nosniff');
    assert.equal(ctx.res.getHeader('Content-Length'), '2');
  });

  it('hands an answer it does not write to Koa with the list set on the response, a header already set kept', () => {
    const { ctx, heads } = context('GET');
    ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
    answerJson(ctx, 'x'.repeat(2048));
    writeAnswer(ctx);
    assert.deepEqual(heads, []);
    assert.equal(ctx.respond, true);
    assert.equal(ctx.body, 'x'.repeat(2048));
    assert.equal(ctx.res.getHeader('Cache-Control'), 'public, max-age=3600');
    assert.equal(ctx.res.getHeader('Access-Control-Allow-Origin'), '*');
    assert.equal(ctx.res.getHeader('Content-Type'), JSON_TYPE);
  });

  it('replaces a listed header set twice (the rate limit\'s after a recipe\'s charge) and takes one off', () => {
    const { ctx } = context();
    setListedHeader(ctx, 'RateLimit-Remaining', '9');
    setListedHeader(ctx, 'RateLimit-Remaining', '6');
    setListedHeader(ctx, 'Access-Control-Allow-Origin', undefined);
    assert.deepEqual(ctx.state.headers, ['X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store', 'Access-Control-Expose-Headers',
      'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id', 'RateLimit-Remaining', '6']);
    assert.equal(listedHeader(ctx.res, 'RateLimit-Remaining'), '6');
    assert.equal(listedHeader(ctx.res, 'Access-Control-Allow-Origin'), undefined);
  });

  it('writes no body to HEAD, with the length of the one GET would get', () => {
    const { ctx, heads } = context('HEAD');
    const writes: unknown[] = [];
    const end = ctx.res.end.bind(ctx.res) as (...args: unknown[]) => ServerResponse;
    ctx.res.end = ((...args: unknown[]) => (writes.push(args[0]), end(...args))) as typeof ctx.res.end;
    answerJson(ctx, '{"status":"ok"}');
    writeAnswer(ctx);
    assert.deepEqual((heads[0]![1] as string[]).slice(-2), ['Content-Length', '15']);
    assert.deepEqual(writes, [undefined]);
  });
});
