/**
 * `toolshed recipe run <file | ->` and `toolshed identify <text | ->`: `call`s of recipes/run and
 * recipes/identify, with the recipe read from a file and the text to identify given as it is (no
 * JSON to write around it). Same configuration, plugins, checks and error bodies as the service.
 */
import { readFile } from 'node:fs/promises';
import type { CliIo } from './command.js';
import { callWith, readAll } from './call.js';

/** Runs the recipe in `file` (`-`: stdin), a JSON request as POST /v1/recipes/run takes it. */
export function recipeRunCommand(file: string, configFile: string | undefined, io: CliIo): Promise<number> {
  return callWith('recipes/run', configFile, io, async () => {
    if (file === '-') return readAll(io.stdin);
    try {
      return await readFile(file);
    } catch (error) {
      // As for a configuration file that cannot be read: refused (exit 1), the reason named.
      throw new Error(`Cannot read the recipe file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  });
}

/** A whole number given on the command line, or the text as it is (the operation's schema then refuses it: 400). */
const numberOrText = (value: string): number | string => (/^\d{1,9}$/.test(value) ? Number(value) : value);

/**
 * Identifies `text` (`-`: stdin, less one final line break, which `echo` and editors add). `depth`
 * and `limit` are passed as POST /v1/recipes/identify takes them.
 */
export function identifyCommand(text: string, options: { depth?: string; limit?: string; config?: string }, io: CliIo): Promise<number> {
  return callWith('recipes/identify', options.config, io, async () => {
    const input = text === '-' ? (await readAll(io.stdin)).toString('utf8').replace(/\r?\n$/, '') : text;
    const body: Record<string, unknown> = { input };
    if (options.depth !== undefined) body.depth = numberOrText(options.depth);
    if (options.limit !== undefined) body.limit = numberOrText(options.limit);
    return Buffer.from(JSON.stringify(body));
  });
}
