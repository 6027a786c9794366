import { MAX_READ_ERRORS } from '../../../core/errors/read-error.ts';
import type { JsonSchema } from '../../../core/schema/json-schema.ts';
import { Problem } from '../../protocol/problem.ts';
import type { MediaForm } from './media-types.ts';
import type { OpenApiObject } from './types.ts';

const JSON_PROBLEM = 'application/problem+json';

/** The name of the problem document schema in `components.schemas`. */
export const PROBLEM_SCHEMA = 'Problem';

/** What each member of a problem document says; one entry per member of the `Problem` descriptor, and `errors`. */
const MEMBERS: { readonly [K in keyof typeof Problem.fields | 'errors']: JsonSchema } = {
  type: {
    type: 'string',
    description: "A URI reference naming the kind of problem; 'about:blank' when the status says it all.",
  },
  title: {
    type: 'string',
    description: 'A short summary of the kind of problem: the status text unless the method says otherwise.',
  },
  status: { type: 'integer', minimum: 100, maximum: 599, description: 'The status code of the answer.' },
  detail: { type: 'string', description: 'What went wrong with this request.' },
  code: {
    type: 'string',
    description:
      'Why the body or a parameter could not be read: syntax_error, type_mismatch, out_of_range, invalid_format, missing_key, unknown_key or limit_exceeded.',
  },
  path: {
    type: 'string',
    description:
      "A JSON Pointer (RFC 6901) to where in the body reading failed: '/books/3/title'; for a path or query parameter, from its name: '/id', '/ids/0', '/q/limit' for the member limit of an object q spread over the query.",
  },
  errors: {
    type: 'array',
    description: `For read errors: every problem found in the body or the parameters, in document order (at most ${MAX_READ_ERRORS}); the first is the one code, path and detail name.`,
    maxItems: MAX_READ_ERRORS,
    items: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Why this part could not be read (as code).' },
        path: { type: 'string', description: 'A JSON Pointer to it (as path).' },
        message: { type: 'string', description: 'What is wrong there.' },
      },
      required: ['code', 'path', 'message'],
    },
  },
  requestId: {
    type: 'string',
    description: "The request's id, as in its x-request-id header (answers with status 500 and over).",
  },
};

/**
 * The `Problem` schema: RFC 9457 problem details, open to extension members (lacquer writes them as
 * text or numbers; the schema leaves them open, as a generated type's index signature must also
 * hold `errors`).
 */
export function problemSchema(): JsonSchema {
  return {
    type: 'object',
    title: PROBLEM_SCHEMA,
    description: 'An RFC 9457 problem document, in the codec the client accepts (application/problem+json by default).',
    // In the descriptor's order; `errors` last when the descriptor leaves it to the extension members.
    properties: structuredClone(
      Object.fromEntries(
        [...new Set([...Object.keys(Problem.fields), ...Object.keys(MEMBERS)])].map((key) => [
          key,
          MEMBERS[key as keyof typeof MEMBERS],
        ]),
      ),
    ),
    required: ['type', 'title', 'status'],
    additionalProperties: true,
  };
}

/** The headers the document refers to, in `components.headers`. */
export function headerComponents(): Record<string, OpenApiObject> {
  return {
    RequestId: {
      description:
        "The request's id: its own x-request-id when that is 1 to 128 visible ASCII characters, else one the server made.",
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$' },
    },
    WWWAuthenticate: {
      description: 'The challenge of each security scheme the operation accepts.',
      schema: { type: 'string' },
    },
    AcceptPost: {
      description: 'The media types a body may have.',
      schema: { type: 'string' },
    },
    ETag: {
      description:
        "The strong entity tag of the answer's bytes; a request whose If-None-Match names it is answered 304.",
      schema: { type: 'string' },
    },
    RetryAfter: {
      description: "Seconds until the rate limit's window ends and a call is counted again.",
      schema: { type: 'integer', minimum: 0 },
    },
    RateLimit: {
      description:
        'The calls left in the current window and the seconds until it ends (IETF httpapi ratelimit-headers draft).',
      schema: { type: 'string' },
    },
    RateLimitPolicy: {
      description: 'The rate limit: calls per window (IETF httpapi ratelimit-headers draft).',
      schema: { type: 'string' },
    },
  };
}

/** A header reference for a response's `headers`. */
export const header = (name: string): OpenApiObject => ({ $ref: `#/components/headers/${name}` });

/** Each problem answer an operation may get, by status; `default` for any other. */
export const PROBLEM_RESPONSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  406: 'NotAcceptable',
  413: 'ContentTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  default: 'OtherProblem',
} as const;

export type ProblemStatus = keyof typeof PROBLEM_RESPONSES;

/** The problem answers in the order a document lists them. */
export const PROBLEM_ORDER: readonly ProblemStatus[] = [400, 401, 403, 406, 413, 415, 429, 500, 'default'];

/** The response object of each problem answer, for `components.responses`. */
export function problemResponseObject(
  status: ProblemStatus,
  media: readonly MediaForm[],
  maxBodyBytes: number,
): OpenApiObject {
  const descriptions: Record<ProblemStatus, string> = {
    400: 'The body, or a path or query parameter, cannot be read (code and path say why and where), or the method refused its arguments.',
    401: 'No credentials, or credentials that are refused; WWW-Authenticate names the schemes. The body is not read.',
    403: 'The credentials are known, but not admitted to this operation.',
    406: 'None of the media types that Accept names can be written.',
    413: `The body is over ${maxBodyBytes} bytes.`,
    415: 'The body has a Content-Type that cannot be read; Accept-Post lists those that can.',
    429: 'Over the rate limit: Retry-After says when a call is counted again. The body is not read.',
    500: "The method failed; requestId finds the failure in the server's logs.",
    default: 'Any other failure the method reports (an HttpError with its status), as a problem document.',
  };
  const headers: OpenApiObject = { 'x-request-id': header('RequestId') };
  if (status === 401) headers['WWW-Authenticate'] = header('WWWAuthenticate');
  if (status === 415) headers['Accept-Post'] = header('AcceptPost');
  if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS(), { 'Retry-After': header('RetryAfter') });
  return { description: descriptions[status], headers, content: problemContent(media) };
}

/** The headers of every answer of a rate-limited operation. */
export const RATE_LIMIT_HEADERS = (): OpenApiObject => ({
  RateLimit: header('RateLimit'),
  'RateLimit-Policy': header('RateLimitPolicy'),
});

/** The 503 of an operation with its own time limit (`method(..., { timeoutMs })`). */
export function timeoutResponse(timeoutMs: number, media: readonly MediaForm[]): OpenApiObject {
  return {
    description: `The method did not answer within its ${timeoutMs} ms (its timeoutMs); the call's signal was aborted.`,
    headers: { 'x-request-id': header('RequestId') },
    content: problemContent(media),
  };
}

/** A problem document in each media type of `media`, JSON's always among them. */
function problemContent(media: readonly MediaForm[]): OpenApiObject {
  const content: OpenApiObject = {};
  // JSON is the fallback of problem documents, even for a registry without the JSON codec.
  const types = media.some((m) => m.problemType === JSON_PROBLEM)
    ? media
    : [{ problemType: JSON_PROBLEM, form: 'json' }, ...media];
  for (const m of types) {
    content[m.problemType] = m.form === 'none' ? {} : { schema: { $ref: `#/components/schemas/${PROBLEM_SCHEMA}` } };
  }
  return content;
}
