/**
 * The `toolshed` command line: picks the command from the leading words, reads its options with
 * node:util parseArgs (strict: an unknown option is a usage error), answers `--help` anywhere, and
 * turns failures into messages and exit codes (docs/cli.md).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT, UsageError, write, type CliIo, type Command } from './command.js';
import { commands } from './commands.js';

/** The real process's streams and environment. */
export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };

const exitCodes =
  'Exit codes: 0 success; 1 refused (call answered 4xx, config check found problems, the configuration\n' +
  'or a plugin cannot be loaded, serve could not start); 2 usage error; 3 call failed on the service\'s\n' +
  'side (a 5xx answer).';

function usageLine(command: Command, withOptions = true): string {
  const options = withOptions && Object.keys(command.options).length > 0 ? ' [options]' : '';
  return `toolshed ${[...command.words, command.args].filter((part) => part !== '').join(' ')}${options}`;
}

function commandHelp(command: Command): string {
  const rows = Object.entries(command.options).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.value ? ` ${option.value}` : ''}`;
    return [flag, option.description] as const;
  });
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  const options = rows.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`).join('\n');
  return `Usage: ${usageLine(command)}\n\n${command.summary}.\n\n${command.help}\n\nOptions:\n${options}\n`;
}

function commandList(list: readonly Command[]): string {
  const usages = list.map((command) => usageLine(command, false).slice('toolshed '.length));
  const width = Math.max(...usages.map((usage) => usage.length));
  return list.map((command, index) => `  ${usages[index]!.padEnd(width)}  ${command.summary}`).join('\n');
}

const mainHelp =
  'Usage: toolshed <command> [arguments] [options]\n\n' +
  'Toolshed, a self-hosted HTTP API of small utility tools.\n\n' +
  `Commands:\n${commandList(commands)}\n\n` +
  'Run "toolshed <command> --help" for what a command takes, "toolshed --version" for the version.\n' +
  'docs/cli.md describes every command.\n\n' +
  `${exitCodes}\n`;

/** A command's "Exit codes: …" paragraph, from its help. */
const exitParagraph = (command: Command): string => command.help.slice(command.help.lastIndexOf('Exit codes:') + 'Exit codes: '.length).replace(/\s*\n\s*/g, ' ');

/** A group's help: its commands, the one option, and the exit codes of each command. */
function groupHelp(word: string, list: readonly Command[]): string {
  const codes = list.map((command) => `  ${command.words.join(' ')}: ${exitParagraph(command)}`).join('\n');
  return (
    `Usage: toolshed ${word} <command> [arguments] [options]\n\nCommands:\n${commandList(list)}\n\n` +
    `Run "toolshed ${word} <command> --help" for what a command takes.\n\n` +
    `Options:\n  -h, --help  Show this help\n\n` +
    `Exit codes: 0 this help, 2 usage error (no command, or one "${word}" does not have); then each command's:\n${codes}\n`
  );
}

/** `toolshed <package version> (API <contract version>)`. */
async function versionText(): Promise<string> {
  const [{ API_VERSION }, packageJson] = await Promise.all([import('../kernel/host/index.js'), readFile(new URL('../../package.json', import.meta.url), 'utf8')]);
  return `toolshed ${(JSON.parse(packageJson) as { version: string }).version} (API ${API_VERSION})\n`;
}

const isHelp = (word: string | undefined): boolean => word === '--help' || word === '-h';

/** The command `argv` names, with the arguments left for it; a UsageError when it names none. */
function selectCommand(argv: readonly string[]): { command: Command; rest: string[] } | { help: string } {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError('Name a command.');
  if (isHelp(first)) return { help: mainHelp };
  const family = commands.filter((command) => command.words[0] === first);
  if (family.length === 0) throw new UsageError(`"${first}" is not a command.`);
  const single = family.find((command) => command.words.length === 1);
  if (single !== undefined) return { command: single, rest: argv.slice(1) };
  const command = family.find((candidate) => candidate.words[1] === second);
  if (command !== undefined) return { command, rest: argv.slice(2) };
  if (isHelp(second)) return { help: groupHelp(first, family) };
  const known = family.map((candidate) => candidate.words[1]).join(', ');
  const message = second === undefined ? `"${first}" needs a command: ${known}.` : `"${first} ${second}" is not a command; "${first}" has ${known}.`;
  throw new UsageError(message, groupHelp(first, family));
}

function parse(command: Command, rest: string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(command.options)) options[name] = option.short ? { type: option.type, short: option.short } : { type: option.type };
  try {
    const parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    // No option is declared `multiple`, so no value is an array.
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    // parseArgs's own messages are clear ("Unknown option '--nope'"); its error codes mark them.
    if ((error as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message);
    throw error;
  }
}

function checkCount(command: Command, positionals: readonly string[]): void {
  const { min, max } = command.positionals;
  if (positionals.length < min) throw new UsageError(`Missing an argument: ${command.args}.`);
  if (positionals.length > max) throw new UsageError(`Too many arguments (${command.args === '' ? 'it takes none' : `it takes ${command.args}`}).`);
}

/** Runs the command line `argv` (without node and the script); resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let selected: Command | undefined;
  try {
    if (argv.length === 1 && argv[0] === '--version') {
      await write(io.stdout, await versionText());
      return EXIT.ok;
    }
    const choice = selectCommand(argv);
    if ('help' in choice) {
      await write(io.stdout, choice.help);
      return EXIT.ok;
    }
    selected = choice.command;
    const { values, positionals } = parse(selected, choice.rest);
    if (values.help === true) {
      await write(io.stdout, commandHelp(selected));
      return EXIT.ok;
    }
    checkCount(selected, positionals);
    return await selected.run({ values, positionals }, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = error.usage ?? (selected === undefined ? mainHelp : `Usage: ${usageLine(selected)}\nRun "toolshed ${selected.words.join(' ')} --help" for more.\n`);
      await write(io.stderr, `toolshed: ${error.message}\n\n${usage}`);
      return EXIT.usage;
    }
    // Configuration problems, a plugin that does not load, a file that cannot be read: no request
    // data is involved, so the message is shown whole.
    await write(io.stderr, `toolshed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.refused;
  }
}
