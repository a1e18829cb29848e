/**
 * The refusals a contained plugin's processes cause, as the SDK's typed errors: its process ended
 * before answering (502 `plugin_crashed`), or it keeps ending and the service waits before starting
 * it again (503 `plugin_unavailable`). Each names the plugin; none quotes the request.
 */
import { ToolshedError } from '@toolshed/plugin-sdk';
import type { EndCause } from './plugin-process.js';

/** What ended a process, in words for a message and a log line. */
export function describeEnd(cause: EndCause): string {
  switch (cause.kind) {
    case 'exited':
      if (cause.startError !== undefined) return `its process could not be started (${cause.startError})`;
      return cause.signal !== null ? `its process was ended by ${cause.signal}` : `its process exited with code ${cause.code ?? 'unknown'}`;
    case 'memory':
      return `its process used ${Math.ceil(cause.rssMb)} MiB of memory, over its cap of ${cause.capMb} MiB`;
    case 'busy-idle':
      return 'its process kept computing after its last request\'s deadline';
    case 'protocol':
      return `its process wrote what the service does not take (${cause.problem})`;
    case 'start-timeout':
      return 'its process did not finish loading the plugin in time';
    case 'deadline':
      return 'its deadline passed';
    case 'aborted':
      return 'its client went away';
    case 'idle':
      return 'its process was idle';
    case 'closing':
      return 'the service is stopping';
  }
}

/** 502 `plugin_crashed`: the plugin's process ended before it answered this request. */
export function pluginCrashed(group: string, cause: EndCause): ToolshedError {
  return new ToolshedError(502, 'plugin_crashed', `The plugin ${group} stopped before answering: ${describeEnd(cause)}; it is started again for the next request`);
}

/** 503 `plugin_unavailable` with Retry-After: the plugin's process keeps ending, and it is started again only after a pause. */
export class PluginUnavailableError extends ToolshedError {
  /** Extra response headers, set by the door. */
  readonly headers: Readonly<Record<string, string>>;
  constructor(group: string, failures: number, retryMs: number) {
    const seconds = Math.max(1, Math.ceil(retryMs / 1000));
    super(503, 'plugin_unavailable', `The plugin ${group} is failing (its process ended ${failures} times in a row); it is started again in ${seconds} s`);
    this.name = 'PluginUnavailableError';
    this.headers = { 'Retry-After': String(seconds) };
  }
}
