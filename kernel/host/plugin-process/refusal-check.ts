/**
 * A refusal from a contained plugin's process, rebuilt from plain fields by the service: only what
 * the SDK's own errors can be (400 `validation_failed` with details, a 422 with a snake_case code,
 * 502/504 upstream, 503), each field bounded. Anything else is the plugin breaking its contract
 * (500). Whether a 422's code is one its operation declares is checked after this, by the
 * operation's terms, as for every plugin. A handler's bug comes back as its name and stack frames.
 */
import { ServerBusyError, ToolshedError, WorkerJobError, type ErrorDetail } from '@toolshed/plugin-sdk';
import { ContractBreach, MAX_ERROR_DETAILS } from '@toolshed/plugin-sdk/contract';

/** The statuses the SDK's errors have: InputError, UnprocessableError, UpstreamError, ServerBusyError, UpstreamTimeoutError. */
const STATUSES = new Set([400, 422, 502, 503, 504]);
const CODE = /^[a-z][a-z0-9_]{0,63}$/;
/** A message or a detail's text is cut to this many characters. */
const MAX_TEXT = 2000;

function detailsOf(value: unknown): ErrorDetail[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const details: ErrorDetail[] = [];
  for (const item of value.slice(0, MAX_ERROR_DETAILS)) {
    const { path, message } = (item ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') return undefined;
    details.push({ path: path.slice(0, MAX_TEXT), message: message.slice(0, MAX_TEXT) });
  }
  return details;
}

/** Refusals the plugin made, as against the service's own about it (its share full, its process gone). */
const fromPlugin = new WeakSet<Error>();

/** True for an error {@link refusalOf} made: a refusal of the plugin's own, whose 422 code its operation must declare. */
export function isPluginRefusal(error: unknown): error is Error {
  return error instanceof Error && fromPlugin.has(error);
}

/** The error the refusal in `header` stands for, from operation `operation` (`group.name`). */
export function refusalOf(operation: string, header: Readonly<Record<string, unknown>>): Error {
  const error = rebuilt(operation, header);
  fromPlugin.add(error);
  return error;
}

function rebuilt(operation: string, header: Readonly<Record<string, unknown>>): Error {
  const { status, code, message } = header;
  const breach = (problem: string): ContractBreach => new ContractBreach({ operation, problems: [problem] });
  if (typeof status !== 'number' || !STATUSES.has(status)) return breach(`/: a refusal with status ${String(status).slice(0, 20)}, which no SDK error has`);
  if (typeof code !== 'string' || !CODE.test(code)) return breach('/: a refusal whose code is not a snake_case word');
  if (typeof message !== 'string') return breach('/: a refusal without a message');
  const text = message.slice(0, MAX_TEXT);
  if (status === 503 && code === 'server_busy') return new ServerBusyError(text);
  if (status !== 400) return new ToolshedError(status, code, text);
  const details = detailsOf(header.details ?? []);
  if (details === undefined) return breach('/: a 400 whose details are not a list of { path, message }');
  return new ToolshedError(400, code, text, details);
}

/** A handler's bug as the process reported it: its name and stack frames, bounded, never its message. */
export function failureOf(header: Readonly<Record<string, unknown>>): WorkerJobError {
  const name = typeof header.errorName === 'string' ? header.errorName.slice(0, 100) : 'Error';
  const frames = Array.isArray(header.frames) ? header.frames.filter((frame): frame is string => typeof frame === 'string').slice(0, 20).map((frame) => frame.slice(0, 300)) : [];
  return new WorkerJobError('failed', name, false, undefined, frames);
}
