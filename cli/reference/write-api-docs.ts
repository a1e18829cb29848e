/**
 * `npm run docs`: writes docs/api.md from the built-in plugins' manifests, with the default
 * configuration. `--check` writes nothing and exits 1 when the committed file is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { API_VERSION, buildRegistry, builtinPluginDir, discoverPlugins, validateCoreConfig } from '../../kernel/host/index.js';
import { buildOpenApiDocument } from '../../kernel/http/index.js';
import { extensions } from '../../service/extensions.js';
import { servedOperations } from '../load.js';
import { renderApiMarkdown, type ApiDocument } from './api-markdown.js';

/** The committed page, in the source tree (this file runs from dist/cli/reference). */
export const apiMarkdownFile = new URL('../../../docs/api.md', import.meta.url);

/** The OpenAPI document of the built-in plugins and recipes with the default configuration, as the service serves it. */
export async function builtinOpenApiDocument(): Promise<Record<string, unknown>> {
  const loaded = await discoverPlugins({ builtinDir: builtinPluginDir, dirs: [], packages: [] });
  const config = validateCoreConfig({});
  return buildOpenApiDocument(servedOperations(config, buildRegistry(loaded, config, extensions)), API_VERSION);
}

/** docs/api.md as the built-in manifests say it should be now. */
export async function currentApiMarkdown(): Promise<string> {
  return renderApiMarkdown((await builtinOpenApiDocument()) as unknown as ApiDocument);
}

async function main(): Promise<void> {
  const markdown = await currentApiMarkdown();
  if (process.argv.includes('--check')) {
    const committed = await readFile(apiMarkdownFile, 'utf8').catch(() => '');
    if (committed !== markdown) {
      process.stderr.write('docs/api.md is stale: run `npm run docs`\n');
      process.exit(1);
    }
    return;
  }
  await writeFile(apiMarkdownFile, markdown);
  process.stdout.write(`wrote docs/api.md (${markdown.length} characters)\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
