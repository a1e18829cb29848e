/**
 * One DNS-over-HTTPS exchange (RFC 8484 §4.1): GET `<resolver>?dns=<base64url query>`, the answer
 * a DNS message of at most 65,535 bytes. No redirect is followed and nothing but a 2xx answer of
 * type application/dns-message is read.
 */
import { isToolshedError, readCapped, UpstreamError } from '@toolshed/plugin-sdk';

/** The largest DNS message there is (RFC 1035 §4.2.2 frames it with a 16-bit length). */
export const MAX_MESSAGE_BYTES = 65_535;

const MEDIA_TYPE = 'application/dns-message';

/**
 * The resolver URL with the query in its `dns` parameter (base64url without padding, RFC 8484
 * §4.1). Throws UpstreamError when the configured URL is not an http(s) URL.
 */
export function queryUrl(resolverUrl: string, query: Uint8Array): URL {
  let url: URL;
  try {
    url = new URL(resolverUrl);
  } catch {
    throw new UpstreamError('The configured resolver URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UpstreamError('The configured resolver URL is not an http(s) URL');
  url.searchParams.set('dns', Buffer.from(query).toString('base64url'));
  return url;
}

/**
 * Sends `query` to `resolverUrl` and returns the raw answer. Network failures, redirects, non-2xx
 * statuses, a wrong content type and oversized bodies become UpstreamError; an abort through
 * `signal` surfaces as the rejection fetch gives it (the caller knows which signal fired).
 */
export async function exchange(resolverUrl: string, query: Uint8Array, signal: AbortSignal): Promise<Buffer> {
  const url = queryUrl(resolverUrl, query);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: { Accept: MEDIA_TYPE }, redirect: 'manual', signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamError('The resolver could not be reached');
  }
  if (response.status < 200 || response.status > 299) {
    response.body?.cancel().catch(() => undefined);
    throw new UpstreamError(`The resolver answered with HTTP status ${response.status}`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== MEDIA_TYPE) {
    response.body?.cancel().catch(() => undefined);
    throw new UpstreamError(`The resolver answered with a content type other than ${MEDIA_TYPE}`);
  }
  try {
    return await readCapped(response.body, MAX_MESSAGE_BYTES, () => new UpstreamError(`The resolver's answer is larger than ${MAX_MESSAGE_BYTES} bytes`));
  } catch (error) {
    if (signal.aborted || isToolshedError(error)) throw error;
    throw new UpstreamError('The connection to the resolver broke while reading its answer');
  }
}
