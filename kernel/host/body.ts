/**
 * The host's second entry, for the doors' pool jobs: a request body's bytes and the API's JSON
 * rules, and nothing else. index.ts exports the same; a module a door runs on the pool (MCP's
 * message reading) imports this one, so that a worker loads these few modules rather than the
 * whole host behind index.ts (47 ms and about 3 MB of heap in each worker that runs the job).
 */
export { bufferOf, byteLengthOf, joinedBytes, type BodyBytes } from './body-bytes.js';
export { BODY_LIMIT, EMPTY_BODY_MESSAGE, MAX_BODY_DEPTH, MAX_BODY_MEMBERS, parseJsonObject } from './json-body.js';
export { answerTooLarge } from './answer.js';
