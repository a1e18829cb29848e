/**
 * The JSON-RPC responses the server writes, as text built around the parts it has: an operation's
 * answer is spliced in as the JSON it already is (it passed the response check), never parsed and
 * written again. A large answer's response, and every answer with a picture, is built on the
 * worker pool (`responseOnWorker`, `pictureResponseOnWorker`): the answer's bytes move there and
 * the response's bytes move back.
 */
import { answerTooLarge } from '../kernel/host/body.js';
import type { RequestId } from './message.js';
import { pngOfSvg, refusedSvg, type ImageField } from './image.js';

/** A tool error's body: the API's error body, and for a refusal that says when to retry, the seconds to wait. */
export interface ToolErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details?: readonly { readonly path: string; readonly message: string }[];
  readonly retryAfterSeconds?: number;
}

/** The response `{"jsonrpc":"2.0","id":…,"result":<result>}` with `result` as JSON text. */
export const resultResponse = (id: RequestId, result: string): string => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;

/** A JSON-RPC error response; `id` null when the message's own could not be read. */
export const errorResponse = (id: RequestId | null, code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** A tool error's result: the error body as its one text item. */
export const toolError = (error: ToolErrorBody): string => JSON.stringify({ isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] });

/** An image content block: for the person the host shows it to (the model has the answer's text). */
export interface ImageBlock {
  readonly data: string;
  readonly mimeType: string;
}

/**
 * A call's result around the answer's JSON text `answer`: the text as one content item (for clients
 * that read text), any pictures after it, and the answer itself as structuredContent.
 */
export function callResult(answer: string, images: readonly ImageBlock[] = []): string {
  const pictures = images.map((image) => `,${JSON.stringify({ type: 'image', data: image.data, mimeType: image.mimeType, annotations: { audience: ['user'] } })}`).join('');
  return `{"content":[{"type":"text","text":${JSON.stringify(answer)}}${pictures}],"structuredContent":${answer}}`;
}

/**
 * `response`, a call's result, held to the answer cap (`server.maxAnswerBytes`): the result carries
 * the answer twice, once escaped again as text, so it can be three times the answer the operation
 * was held to (90 MB for an answer of 32 MB). Past the cap the call is refused as the API refuses
 * an answer over it, 422 output_too_large.
 */
export function heldToCap(response: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(response);
  if (bytes > maxBytes) throw answerTooLarge(bytes, maxBytes);
  return response;
}

/** A whole buffer of its own, so the pool moves it instead of copying it. */
const movable = (text: string): Uint8Array => Buffer.from(text);

const textOf = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** The response to call `id` whose answer is `answer`'s bytes, built on a worker and held to `maxBytes`. */
export function responseOnWorker(id: RequestId, answer: Uint8Array, maxBytes: number): Uint8Array {
  return movable(heldToCap(resultResponse(id, callResult(textOf(answer))), maxBytes));
}

/** What a call with pictures comes to: its response, and why a picture was left out when one was. */
export interface PictureResponse {
  readonly response: Uint8Array;
  readonly leftOut?: string;
}

/**
 * The response to call `id` whose answer `answer` has the pictures `fields`, each as an image block
 * after the text. A picture that cannot be drawn is left out and said why; the answer stands.
 */
export async function pictureResponseOnWorker(id: RequestId, answer: Uint8Array, fields: readonly ImageField[], maxBytes: number): Promise<PictureResponse> {
  const text = textOf(answer);
  const value = JSON.parse(text) as Record<string, unknown>;
  const images: ImageBlock[] = [];
  const reasons: string[] = [];
  for (const { field, form, mimeType } of fields) {
    const data = value[field];
    if (typeof data !== 'string' || data === '') continue;
    if (form === 'base64') {
      images.push({ data, mimeType });
      continue;
    }
    const refused = refusedSvg(data);
    if (refused !== undefined) {
      reasons.push(`${field}: ${refused}`);
      continue;
    }
    try {
      images.push({ data: await pngOfSvg(data), mimeType });
    } catch (error) {
      // resvg did not load (Node's permission model forbids native modules) or could not draw it.
      reasons.push(`${field}: ${error instanceof Error ? error.name : 'an error'} while drawing it`);
    }
  }
  let response = resultResponse(id, callResult(text, images));
  // Pictures that would take the result past the cap are left out, as one that cannot be drawn is.
  if (images.length > 0 && Buffer.byteLength(response) > maxBytes) {
    reasons.push(`${fields.map(({ field }) => field).join(', ')}: the result with the pictures would pass server.maxAnswerBytes`);
    response = resultResponse(id, callResult(text));
  }
  return { response: movable(heldToCap(response, maxBytes)), ...(reasons.length === 0 ? {} : { leftOut: reasons.join('; ') }) };
}
