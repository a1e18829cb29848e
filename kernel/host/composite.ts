/**
 * Composite operations: operations that belong to no plugin but to a front door (a recipe runs its
 * steps), handed to the host by the composition root (service/). The one executor lists, finds and
 * runs them beside the plugins' operations (kernel/host/executor.ts), so every door that derives
 * what it serves from `executor.operations()` serves them with no code of its own. The host names
 * none of them: what they are, which groups they reserve and which configuration section they read
 * all come from outside.
 */
import type { Config } from './config.js';
import type { CompositeOperation, Executor, OperationCatalog } from './executor-types.js';

/**
 * What the composition root adds to the host besides the plugins. A front door owns configuration
 * sections and groups the way a plugin does, so the host's key check and group check know them
 * without knowing what they are.
 */
export interface HostExtensions {
  /** Top-level configuration keys a front door reads (checked by `composites`, not the host). */
  readonly sections?: readonly string[];
  /** Groups no plugin may take: a front door serves `<group>/…` itself. */
  readonly reservedGroups?: readonly string[];
  /**
   * The composite operations, made once the plugins' operations are known. Throws the host's
   * ConfigError naming every problem of its sections: the service then does not start.
   */
  readonly composites?: (operations: OperationCatalog & Executor, config: Config) => readonly CompositeOperation[];
}
