import type { Type } from '../../../core/descriptors/type.ts';
import type { ObjectType } from '../../../core/descriptors/object.ts';
import { StreamType } from '../../../core/descriptors/stream.ts';
import { SSE } from '../../protocol/streams/sse.ts';
import { argumentSources, type ArgumentSources } from '../arguments.ts';
import type { Operation } from '../../protocol/pipeline/endpoints.ts';
import { header, PROBLEM_RESPONSES, RATE_LIMIT_HEADERS, timeoutResponse, type ProblemStatus } from './problems.ts';
import type { MediaForm, StreamForm } from './media-types.ts';
import { parameterObjects } from './parameters.ts';
import type { SchemaDirection } from '../../../core/schema/schema-target.ts';
import type { SchemaComponents } from './schemas.ts';
import { streamContent, streamFraming } from './streams.ts';
import type { OpenApiObject } from './types.ts';

const SUCCESS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
};

/** What one operation object is built from. */
export interface OperationContext {
  readonly schemas: SchemaComponents;
  readonly media: readonly MediaForm[];
  /** The media types of stream answers. */
  readonly streams: readonly StreamForm[];
  readonly operationId: string;
  /** OpenAPI 3.2's `itemSchema` for a stream's items; without it (3.1), the framing is described. */
  readonly itemSchemas: boolean;
}

/**
 * One operation: its tag (the service), `operationId`, the body in every codec's media type, the
 * declared success status (a stream: its item in every stream media type), and the problem answers
 * it can get, as the endpoint answers them.
 */
export function operationObject(op: Operation, ctx: OperationContext, used: Set<ProblemStatus>): OpenApiObject {
  const { contract } = op;
  const name = `${op.service}.${op.method}`;
  const sources = argumentSources(`openApi(): ${name}`, contract, op.verb);
  const input = sources.body;
  // A path or query value that does not read is a 400, as a body that does not.
  const readsText = sources.path.length + sources.query.length > 0;
  const returnsVoid = contract.returns.kind === 'void';
  const status = contract.status ?? (returnsVoid ? 204 : 200);

  const out: OpenApiObject = { tags: [op.service], summary: name, operationId: ctx.operationId };
  if (contract.description !== undefined) out.description = contract.description;
  if (op.security.length > 0) out.security = op.security.map((scheme) => ({ [scheme]: [] }));
  if (readsText) out.parameters = parameterObjects(sources, ctx.schemas, `openApi(): ${name}`);
  const incoming = contract.bodyStream;
  if (incoming !== undefined) {
    // SSE only answers: a request stream's body is one of the sequence types.
    const bodies = ctx.streams.filter((s) => s.mediaType !== SSE);
    const description = 'The stream of items, read as they arrive; the end of the body between items ends it.';
    out.requestBody = {
      description: ctx.itemSchemas ? description : `${description} ${streamFraming(bodies)}`,
      required: true,
      content: streamContent(incoming.item, 'read', `${name}'s stream items`, ctx.schemas, bodies, ctx.itemSchemas),
    };
  } else if (input !== undefined) {
    const description = bodyDescription(sources, contract.paramTypes.length);
    // An empty body of named parameters is the empty object: needed only when that is refused.
    const required =
      sources.bodyForm === 'positional' ||
      ctx.schemas.members(input as ObjectType, 'json', `${name}'s body`).required.length > 0;
    out.requestBody = {
      ...(description === undefined ? {} : { description }),
      required,
      content: content(input, 'read', `${name}'s body`, ctx),
    };
  }

  const success: OpenApiObject = {
    description: `${SUCCESS_TEXT[status] ?? 'Success'}${returnsVoid ? ': no body' : ''}`,
    headers: { 'x-request-id': header('RequestId') },
  };
  const stream = contract.returns instanceof StreamType;
  if (contract.returns instanceof StreamType) {
    success.description +=
      ': a stream of items, in the media type Accept chooses; a problem before the first item is an ordinary problem answer';
    if (!ctx.itemSchemas) success.description += `. ${streamFraming(ctx.streams)}`;
    success.content = streamContent(
      contract.returns.item,
      'write',
      `${name}'s stream items`,
      ctx.schemas,
      ctx.streams,
      ctx.itemSchemas,
    );
  } else if (!returnsVoid) success.content = content(contract.returns, 'write', `${name}'s answer`, ctx);
  // A GET answered 200 with a body carries its entity tag, unless its Cache-Control is no-store.
  const tagged = op.verb === 'GET' && status === 200 && !returnsVoid && !stream && contract.cache !== 'no-store';
  if (tagged) (success.headers as OpenApiObject).ETag = header('ETag');
  if (op.rateLimited === true) Object.assign(success.headers as OpenApiObject, RATE_LIMIT_HEADERS());
  const responses: OpenApiObject = { [String(status)]: success };
  if (tagged) {
    responses['304'] = {
      description: 'Not Modified: If-None-Match names the entity tag of the answer; no body.',
      headers: { 'x-request-id': header('RequestId'), ETag: header('ETag') },
    };
  }

  const problems: ProblemStatus[] = [];
  const hasBody = input !== undefined || incoming !== undefined;
  if (hasBody || readsText) problems.push(400);
  if (op.security.length > 0) problems.push(401, 403);
  if (!returnsVoid) problems.push(406);
  if (hasBody) problems.push(413, 415);
  if (op.rateLimited === true) problems.push(429);
  problems.push(500);
  for (const p of problems) {
    used.add(p);
    responses[String(p)] = { $ref: `#/components/responses/${PROBLEM_RESPONSES[p]}` };
  }
  // The transport's handlerTimeoutMs is not the document's to know; a method's own limit is.
  if (contract.timeoutMs !== undefined && contract.timeoutMs > 0)
    responses['503'] = timeoutResponse(contract.timeoutMs, ctx.media);
  used.add('default');
  responses.default = { $ref: `#/components/responses/${PROBLEM_RESPONSES.default}` };
  out.responses = responses;
  return out;
}

/** What the body holds, when it is not the one parameter of an array. */
function bodyDescription(sources: ArgumentSources, n: number): string | undefined {
  if (sources.bodyForm === 'positional')
    return n > 1 ? `The ${n} parameters, as an array in the order declared.` : undefined;
  const names = sources.bodyNames;
  if (names.length === 1) return `The parameter ${names[0]}, by name.`;
  return `The parameters ${names.slice(0, -1).join(', ')} and ${names.at(-1)}, by name.`;
}

/** A body's `content`: the schema in each codec's media type. */
function content(type: Type, direction: SchemaDirection, where: string, ctx: OperationContext): OpenApiObject {
  const out: OpenApiObject = {};
  for (const m of ctx.media) {
    out[m.mediaType] = m.form === 'none' ? {} : { schema: ctx.schemas.schema(type, direction, m.form, where) };
  }
  return out;
}
