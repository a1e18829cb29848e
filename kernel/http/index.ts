/**
 * The HTTP door's entry module: what the composition root and a door that answers over HTTP
 * (MCP at /mcp) may use of it. The layer rule refuses an import of any other file under
 * kernel/http/ from outside it but api-keys.ts, the key format, which `toolshed keys new` imports
 * on its own: through this module it would load Koa and the whole HTTP stack to make a key.
 */
export { HttpError } from './http-error.js';
export type { HttpBodies } from './http-body.js';
export { buildOpenApiDocument } from './openapi.js';
export { buildService, startService, type BuiltService, type DoorKit, type RunningService, type StartOptions } from './server.js';
export { JSON_TYPE, type DoorRoute, type FrontDoor, type KernelContext, type KernelMiddleware } from './types.js';

/**
 * Resolves when the service could count rate limits in the Redis at `url`; rejects with the reason
 * (rate-limit/redis-store.ts). ioredis is loaded only when this is called.
 */
export async function tryRedis(url: string): Promise<void> {
  await (await import('./rate-limit/redis-store.js')).tryRedis(url);
}
