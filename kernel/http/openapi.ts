/** A pure function: the executor's operations → OpenAPI 3.1 document. */
import { MAX_BODY_DEPTH, MAX_BODY_MEMBERS, type OperationInfo } from '../host/index.js';

const errorSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'machine-readable code, listed in docs/errors.md' },
        message: { type: 'string' },
        details: {
          type: 'array',
          description: 'A 400: every offending field. Another status: only where the refusal has a place (the step of a recipe that failed)',
          items: {
            type: 'object',
            required: ['path', 'message'],
            additionalProperties: false,
            properties: { path: { type: 'string', description: 'JSON Pointer into the body' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
};

const UNPROCESSABLE = 'Valid parameters, but the tool cannot process the input';
/** The 422 codes the kernel itself may answer for any operation. */
const KERNEL_422 = "Any operation may also answer the kernel's `output_too_large` (answer cap) or `input_too_complex` (work budget).";

const sharedResponses: Record<string, string> = {
  '400': `Malformed JSON, arrays and objects nested more than ${MAX_BODY_DEPTH} levels deep, or more than ${MAX_BODY_MEMBERS} object members in all (invalid_json); or parameters that do not match the schema (validation_failed, with details)`,
  '401': 'Invalid or revoked API key (unauthorized)',
  '404': 'Unknown path (not_found)',
  '405': 'A method other than POST on an operation path (method_not_allowed); the Allow header says POST',
  '413': 'Request body larger than 10 MiB (payload_too_large)',
  '415': 'Content-Type missing or not application/json, or Content-Encoding not supported (unsupported_media_type)',
  '422': `${UNPROCESSABLE}. ${KERNEL_422}`,
  '429': 'Rate limit exceeded (rate_limited); Retry-After says when to retry',
  '502': 'An upstream service failed (upstream_error)',
  '503': 'The service is at a budget (server_busy: worker queue or bytes in flight), or a plugin has no data from its upstream yet (upstream_unavailable); Retry-After says when to retry',
  '504': 'An upstream service timed out (upstream_timeout)',
};

function errorResponse(description: string, headers?: Record<string, unknown>): Record<string, unknown> {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Builds the document for `operations` (the executor's, in its order: the plugins' and the
 * composition root's composites alike), one tag per group in order of first appearance; the groups
 * the operator switched off are listed so their pages can say so.
 */
export function buildOpenApiDocument(operations: readonly OperationInfo[], version: string, disabledGroups: readonly string[] = []): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const tags = new Map<string, OperationInfo>();
  for (const operation of operations) {
    const { examples, definition } = operation;
    const path = `/v1/${operation.name}`;
    if (!tags.has(operation.group)) tags.set(operation.group, operation);
    // Only the codes this operation declares (all of its plugin's when it lists none).
    const codes = Object.entries(operation.errors);
    const example = examples[0];
    const responses: Record<string, unknown> = {
      '200': {
        description: 'Success',
        content: { 'application/json': { schema: plain(operation.responseSchema), ...(example ? { example: example.response } : {}) } },
      },
    };
    // 422 and 503 can come from the kernel for any operation (answer cap, work budget, byte budgets).
    for (const status of ['400', '401', '404', '413', '415', '422', '429', '503']) responses[status] = { $ref: `#/components/responses/${status}` };
    // A composite runs other operations, so it may answer what an upstream's failure gives too.
    if (operation.upstream || operation.composite === true) {
      responses['502'] = { $ref: '#/components/responses/502' };
      responses['504'] = { $ref: '#/components/responses/504' };
    }
    if (codes.length > 0) responses['422'] = errorResponse(`${UNPROCESSABLE}: ${codes.map(([code, text]) => `\`${code}\` (${text})`).join('; ')}. ${KERNEL_422}`);
    paths[path] = {
      post: {
        operationId: operation.id,
        tags: [operation.group],
        summary: operation.summary,
        ...(operation.description ? { description: operation.description } : {}),
        // The manifest's main fields (`io`), which recipes wire by default: the tool pages offer a
        // next step only where this operation's main output fits that step's main input.
        ...(definition.io?.input !== undefined || definition.io?.output !== undefined ? { 'x-io': { ...definition.io } } : {}),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: plain(operation.requestSchema),
              examples: Object.fromEntries(examples.map((entry, index) => [`example${index + 1}`, { summary: entry.title ?? `Example ${index + 1}`, value: entry.body }])),
            },
          },
        },
        responses,
        // For the tool pages: whether an answer may be shown as the person types (docs/decisions.md, "The tool pages as tools").
        'x-deterministic': definition.deterministic ?? definition.upstream !== true,
        ...(definition.readsClock === true ? { 'x-reads-clock': true } : {}),
        'x-offload': operation.offload ?? 'auto',
      },
      // Every operation is POST only. Any other method is 405, stated once (info.description and
      // components.responses.405) rather than as a GET per path: a GET block doubled what /docs
      // lists and gave generated clients a method that always fails (issue 39).
    };
  }
  const rateHeaders = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } };
  const responseHeaders: Record<string, Record<string, unknown> | undefined> = {
    '405': { Allow: { description: 'The methods the path accepts: POST', schema: { type: 'string', const: 'POST' } } },
    '429': rateHeaders,
    '503': rateHeaders,
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Toolshed utility tools API',
      version,
      description:
        'Small, stateless utility operations. Beta. Request data is processed in memory only and is neither stored nor logged. ' +
        'Every operation is POST; any other method on its path answers 405 `method_not_allowed` with `Allow: POST` (the response `405` under components.responses). ' +
        `A request body nests arrays and objects at most ${MAX_BODY_DEPTH} levels deep ` +
        `(the body itself is level 1) and holds at most ${MAX_BODY_MEMBERS} object members, all its objects together; ` +
        'deeper or more is 400 `invalid_json`.',
    },
    'x-max-body-depth': MAX_BODY_DEPTH,
    'x-max-body-members': MAX_BODY_MEMBERS,
    tags: [...tags.values()].map((first) => ({
      name: first.group,
      ...(first.groupSummary ? { description: first.groupSummary } : {}),
      // The manifest's words for people, which the tool pages show and search (docs/decisions.md, "The tool pages as tools").
      ...(first.groupTitle ? { 'x-title': first.groupTitle } : {}),
      ...(first.groupCategory ? { 'x-category': first.groupCategory } : {}),
      ...(first.groupKeywords ? { 'x-keywords': [...first.groupKeywords] } : {}),
    })),
    // Groups switched off by the operator, which the 404 of their paths already names: their pages say so.
    ...(disabledGroups.length > 0 ? { 'x-disabled-groups': [...disabledGroups] } : {}),
    security: [{}, { bearerAuth: [] }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Optional API key (tsk_…); raises the rate limit' } },
      responses: Object.fromEntries(
        Object.entries(sharedResponses).map(([status, text]) => [status, errorResponse(text, responseHeaders[status])]),
      ),
    },
  };
}
