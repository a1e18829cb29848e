/**
 * The file piscina loads in each pool worker. piscina loads its task file with require() first,
 * and from Node 20.19 require() of an ES module loads it synchronously: a worker terminated in the
 * middle of that load (the pool closed while a worker boots, as at SIGTERM right after the start's
 * warm-up) aborted the whole process on Node 20.20 ("v8::Module::IsGraphAsync must be used on an
 * instantiated module"). This CommonJS file is what piscina requires; it imports the task module
 * (./worker-entry.js) asynchronously, a load that termination ends cleanly. The import starts as
 * the worker boots, as piscina's own load did.
 */
type Task = (request: unknown) => Promise<unknown>;

const task: Promise<Task> = import('./worker-entry.js').then((loaded) => loaded.default as Task);

module.exports = async (request: unknown): Promise<unknown> => (await task)(request);
