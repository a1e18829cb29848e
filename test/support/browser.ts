/**
 * What the browser tests share: Debian's chromium driven by playwright-core (no browser download),
 * and a service whose DNS and currency upstreams are local fakes holding what those groups' first
 * examples need.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { zoneAnswering, startResolver, type PresentedLookup } from '../../plugins/dns-lookup/fake-resolver.js';
import { startFeed } from '../../plugins/currency-converter/fake-feed.js';
import { builtinPluginDir } from '../../kernel/server.js';
import { startTestService, type TestService } from './service.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless chromium that reaches nothing by itself (no sync, updates or QUIC probes). */
export function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Every built-in plugin, with `config` merged over the fakes' addresses; `stop` ends the fakes too. */
export async function startServiceWithFakeUpstreams(config: Record<string, unknown> = {}): Promise<TestService> {
  const dns = (await import('../../plugins/dns-lookup/index.js')).default;
  const resolver = await startResolver(zoneAnswering(dns.operations.lookup!.examples[0]!.response as PresentedLookup));
  const feed = await startFeed();
  const service = await startTestService(
    { dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } }, currency: { ratesUrl: feed.url }, ...config },
    { builtinDir: builtinPluginDir },
  );
  const stop = service.stop.bind(service);
  return Object.assign(service, {
    stop: async () => {
      await stop();
      await resolver.close();
      await feed.close();
    },
  });
}
