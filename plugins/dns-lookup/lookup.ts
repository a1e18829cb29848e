/**
 * The lookup: normalise the name, send one query per type to the chosen resolver in parallel, and
 * collect the answers in request order, all within one `timeoutMs` budget.
 */
import { isToolshedError, UpstreamError, UpstreamTimeoutError, type OperationContext } from '@toolshed/plugin-sdk';
import type { DnsConfig } from './config.js';
import { exchange } from './doh-client.js';
import { normaliseName } from './name.js';
import { buildQuery, readAnswer, type RecordTypeName } from './wire.js';
import type { PresentedRecord } from './presentation.js';

/** The request, with defaults filled. */
export interface LookupInput {
  name: string;
  types: RecordTypeName[];
  resolver: 'cloudflare' | 'google';
}

/** The answer for one requested type. */
export interface LookupResult {
  type: RecordTypeName;
  status: string;
  authenticated: boolean;
  records: PresentedRecord[];
}

/** The response body. */
export interface LookupResponse {
  name: string;
  results: LookupResult[];
}

/**
 * Runs the lookup. An IP address is looked up as PTR of its reverse name, whatever `types` says.
 * Throws 422 invalid_domain, 502 UpstreamError or 504 UpstreamTimeoutError.
 */
export async function lookup(input: LookupInput, context: OperationContext<DnsConfig>): Promise<LookupResponse> {
  const { name, reverse } = normaliseName(input.name);
  const types: RecordTypeName[] = reverse ? ['PTR'] : input.types;
  const resolverUrl = input.resolver === 'google' ? context.config.resolvers.google : context.config.resolvers.cloudflare;
  const timeout = AbortSignal.timeout(context.config.timeoutMs);
  // Once one query has failed the whole lookup has, so the others are stopped rather than left running.
  const failed = new AbortController();
  const signal = AbortSignal.any([context.signal, timeout, failed.signal]);

  const ask = async (type: RecordTypeName): Promise<LookupResult> => {
    try {
      const message = await exchange(resolverUrl, buildQuery(name, type), signal);
      return { type, ...readAnswer(message, name, type) };
    } catch (error) {
      failed.abort();
      if (timeout.aborted) throw new UpstreamTimeoutError(`The resolver did not answer within ${context.config.timeoutMs} ms`);
      if (isToolshedError(error)) throw error;
      if (context.signal.aborted) throw new UpstreamError('The lookup was cancelled');
      throw new UpstreamError('The exchange with the resolver failed');
    }
  };
  return { name, results: await Promise.all(types.map(ask)) };
}
