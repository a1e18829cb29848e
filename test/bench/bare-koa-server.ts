// Baseline 2: bare Koa with koa-body and @koa/router answering base64.encode, no validation, no auth.
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';

const app = new Koa();
const router = new Router();
router.post('/v1/base64/encode', (ctx) => {
  const { text } = ctx.request.body as { text: string };
  ctx.body = { base64: Buffer.from(text, 'utf8').toString('base64') };
});
app.use(koaBody({ jsonLimit: '10mb' }));
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
