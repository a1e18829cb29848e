/** What every `toolshed` command is made of: its words, arguments, options, help and exit codes. */

/** The process streams and environment a command uses (injected, so nothing reaches for globals). */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
}

/** The exit codes, the same for every command (docs/cli.md). */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** Refused: `call` answered 4xx, `config check` found problems, or the configuration or a plugin cannot be loaded. */
  refused: 1,
  /** The command line is wrong: unknown command or option, missing or extra argument, unknown operation. */
  usage: 2,
  /** `call` only: the operation failed on the service's side (5xx: a bug, an upstream, no capacity). */
  failed: 3,
} as const;

/** An option as `--help` shows it and `parseArgs` reads it. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The placeholder of a string option's value in the help (`<file>`). */
  readonly value?: string;
  readonly description: string;
}

/** What `parseArgs` found on the command line. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

export interface Command {
  /** The words that select it: `['config', 'check']`. */
  readonly words: readonly string[];
  /** Its positional arguments as the usage line shows them: `<group>/<operation> [json | -]`. */
  readonly args: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** The paragraphs of its `--help` after the usage line; exit codes included. */
  readonly help: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** How many positional arguments it takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** Runs it; resolves with the exit code. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** A wrong command line: answered with the message, the usage and exit code 2. */
export class UsageError extends Error {
  /** @param usage what to show after the message, when not the selected command's usage line. */
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Whether `error` says the reader of the stream went away (`toolshed openapi | head -1`): EPIPE on
 * the first write after it, ERR_STREAM_DESTROYED on the writes after that. No failure of the
 * command: what is left to write has no one to read it.
 */
export function isClosedPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Writes `text` and resolves once it is handed to the OS, so an exit right after loses nothing.
 * A closed pipe resolves too: the command goes on to its own exit code (docs/cli.md).
 */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error && !isClosedPipe(error) ? reject(error) : resolve())));
}
