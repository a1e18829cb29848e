/** Writes a new third-party plugin folder. Placeholder until the scaffold lands (issue 13). */
export interface ScaffoldOptions {
  /** The plugin's group (kebab-case); also the folder's name. */
  readonly group: string;
  /** The folder to create (it must not exist or be empty). */
  readonly dir: string;
}

/** Writes the plugin folder; returns the files written, relative to `dir`. */
export async function scaffoldPlugin(options: ScaffoldOptions): Promise<string[]> {
  throw new Error(`cannot scaffold ${options.group} yet`);
}
