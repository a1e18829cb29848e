/**
 * A built-in plugin whose module is imported on first use. Its build wrote its manifest as data
 * (scripts/bundle-plugins.mjs: `index.manifest.v8`, made after the import ran `definePlugin`'s
 * check), which is all the registry, the OpenAPI document, MCP and the tool pages read. The module
 * (its libraries: about two thirds of start-up) is imported when an operation of the group first
 * runs here, or when its `warm()` is due; a service that never calls sql-formatter never loads it.
 */
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import type { OperationDefinition, Plugin } from '@toolshed/plugin-sdk';
import type { ManifestData } from './manifest-data.js';

/** What the build writes: the manifest without its functions, and which of those it has. */
export interface ManifestDataFile {
  readonly manifest: ManifestData;
  readonly warm: boolean;
  readonly close: boolean;
}

/**
 * The manifest data file at `file`, or undefined when it cannot be read as one (written by another
 * Node's serializer, cut short): the caller then imports the module, as without the file.
 */
export function readManifestData(file: string): ManifestDataFile | undefined {
  try {
    const data = deserialize(readFileSync(file)) as Partial<ManifestDataFile> | null;
    const manifest = data?.manifest as { group?: unknown; operations?: unknown } | undefined;
    if (typeof manifest?.group !== 'string' || typeof manifest.operations !== 'object' || manifest.operations === null) return undefined;
    return { manifest: data!.manifest!, warm: data!.warm === true, close: data!.close === true };
  } catch {
    return undefined;
  }
}

/** A plugin module imported on first use, once, and warmed as it is. */
export class DeferredModule {
  #loading: Promise<Plugin> | undefined;
  #plugin: Plugin | undefined;

  /**
   * `load` imports the module and returns its manifest; `group` is what the data said, and the
   * module must say the same.
   */
  constructor(
    readonly group: string,
    private readonly load: () => Promise<Plugin>,
  ) {}

  /** True once the module is imported and warmed. */
  get loaded(): boolean {
    return this.#plugin !== undefined;
  }

  /** The module's manifest: imported, then warmed, on the first call; a failed import is tried again on the next. */
  plugin(): Promise<Plugin> {
    this.#loading ??= this.load().then(
      async (plugin) => {
        if (plugin.group !== this.group) throw new Error(`the module of the built-in plugin "${this.group}" defines the group "${plugin.group}": rebuild (npm run build)`);
        await plugin.warm?.();
        return (this.#plugin = plugin);
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }

  /** The imported manifest, or undefined while it is not. */
  get imported(): Plugin | undefined {
    return this.#plugin;
  }
}

/**
 * `data` as a manifest whose handlers import the module on their first call and call its own
 * handler; once it is imported, a handler is called directly. `warm` loads the module (which
 * warms it), when the module has one; `close` closes it, when it was loaded.
 */
export function deferredPlugin(file: ManifestDataFile, module: DeferredModule): Plugin {
  const { manifest } = file;
  const operations: Record<string, OperationDefinition> = {};
  for (const [name, data] of Object.entries(manifest.operations)) {
    let handler: OperationDefinition['handler'] | undefined;
    operations[name] = {
      ...data,
      handler: (input, context) => {
        if (handler !== undefined) return handler(input, context);
        return module.plugin().then((plugin) => {
          const own = plugin.operations[name]?.handler;
          if (own === undefined) throw new Error(`the module of the built-in plugin "${manifest.group}" has no operation "${name}": rebuild (npm run build)`);
          return (handler = own)(input, context);
        });
      },
    } as OperationDefinition;
  }
  return {
    ...manifest,
    operations,
    ...(file.warm ? { warm: async () => void (await module.plugin()) } : {}),
    ...(file.close ? { close: async () => module.imported?.close?.() } : {}),
  } as Plugin;
}
