// Reference 2: bare Koa with koa-body and @koa/router, as a Koa service starts out: no validation,
// no auth, no logging. Toolshed is a Koa service, so this is the floor its own pipeline adds to.
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { announce } from './child-ipc.js';
import { encode, ENCODE_PATH, hash, HASH_PATH, HEALTH_PATH, type EncodeBody, type HashBody } from './reference-work.js';

// koa-body types the parsed body as any JSON value; like most Koa services, this one trusts its shape.
const bodyOf = <Body>(request: { body?: unknown }): Body => request.body as Body;

const app = new Koa();
const router = new Router();
router.get(HEALTH_PATH, (ctx) => {
  ctx.body = { status: 'ok' };
});
router.post(ENCODE_PATH, (ctx) => {
  ctx.body = encode(bodyOf<EncodeBody>(ctx.request));
});
router.post(HASH_PATH, (ctx) => {
  ctx.body = hash(bodyOf<HashBody>(ctx.request));
});
app.use(koaBody({ jsonLimit: '10mb' }));
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => announce((server.address() as { port: number }).port));
