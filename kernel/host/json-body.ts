/**
 * The API's rules for a JSON body, wherever it arrives (HTTP, MCP, a pool worker): UTF-8, not
 * empty, at most {@link MAX_BODY_DEPTH} levels deep and {@link MAX_BODY_MEMBERS} object members, a JSON object; a syntax error is told by its
 * line and column, never by quoting the body. Refusals are the SDK's 400 `invalid_json`.
 */
import { isAscii } from 'node:buffer';
import { ToolshedError } from '@toolshed/plugin-sdk';
import { bufferOf, joinedBytes, type BodyBytes } from './body-bytes.js';
import { findJsonSyntaxProblem, positionOf, shapeBreachAt } from './json-syntax.js';

/** The contract's body cap: 10 MiB. */
export const BODY_LIMIT = 10 * 1024 * 1024;

/** Deepest nesting of a body; no operation's schema comes near it (the deepest nests 3 levels). */
export const MAX_BODY_DEPTH = 64;

/**
 * Most object members in one body, all its objects together. A request's schema has a few dozen at
 * most; a recipe's free `input` may carry data. At this bound distinct keys cost JSON.parse about
 * 0.2 s; a 10 MiB body of them cost 4 to 6 s (docs/decisions.md).
 */
export const MAX_BODY_MEMBERS = 100_000;

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Nothing but JSON's own whitespace (RFC 8259 §2). */
const blank = /^[ \t\n\r]*$/;

/** `value`'s JSON text in UTF-8: a body as a client would have sent it. */
export const jsonBytes = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));

const invalidJson = (message: string): ToolshedError => new ToolshedError(400, 'invalid_json', message);

/** What an empty or blank body is told: the contract's body is a JSON object, and nothing is not one. */
export const EMPTY_BODY_MESSAGE = 'The request body is empty; send a JSON object, {} when the operation needs no field';

/**
 * The body's text. ASCII bytes (most JSON) are their characters: each chunk is copied as it is,
 * without decoding UTF-8 or joining the chunks first (JSON.parse flattens the pieces once; for a
 * 1 MiB body that saved a 1 MiB buffer and a decoding pass). Anything else is decoded strictly.
 */
function textOf(body: BodyBytes): string {
  const chunks: readonly Uint8Array[] = Array.isArray(body) ? body : [body as Uint8Array];
  if (chunks.every((chunk) => isAscii(chunk))) {
    let text = '';
    for (const chunk of chunks) text += bufferOf(chunk).toString('latin1');
    return text;
  }
  try {
    return utf8.decode(joinedBytes(body));
  } catch {
    throw invalidJson('The request body is not valid UTF-8');
  }
}

/** Parses the bytes, or the chunks they arrived in, as a JSON object. */
export function parseJsonObject(bytes: BodyBytes): unknown {
  const text = textOf(bytes);
  if (blank.test(text)) throw invalidJson(EMPTY_BODY_MESSAGE);
  const breach = shapeBreachAt(text, MAX_BODY_DEPTH, MAX_BODY_MEMBERS);
  if (breach !== undefined) {
    const { line, column } = positionOf(text, breach.offset);
    throw invalidJson(
      breach.bound === 'depth'
        ? `The request body nests deeper than ${MAX_BODY_DEPTH} levels at line ${line}, column ${column}`
        : `The request body has more than ${MAX_BODY_MEMBERS.toLocaleString('en-US')} object members; member ${(MAX_BODY_MEMBERS + 1).toLocaleString('en-US')} is at line ${line}, column ${column}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const problem = findJsonSyntaxProblem(text);
    const where = problem ? `: ${problem.reason} at line ${problem.line}, column ${problem.column}` : '';
    throw invalidJson(`The request body is not valid JSON${where}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidJson('The request body must be a JSON object');
  }
  return value;
}
