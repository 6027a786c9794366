import type { Endpoints } from '../../protocol/pipeline/endpoints.ts';
import { StreamType } from '../../../core/descriptors/stream.ts';
import { mediaForms, streamForms } from './media-types.ts';
import { operationObject } from './operation.ts';
import {
  headerComponents,
  PROBLEM_ORDER,
  PROBLEM_RESPONSES,
  PROBLEM_SCHEMA,
  problemResponseObject,
  problemSchema,
  type ProblemStatus,
} from './problems.ts';
import { SchemaComponents } from './schemas.ts';
import type { OpenApiDocument, OpenApiObject, OpenApiOptions } from './types.ts';

/** The OpenAPI version written. */
export const OPENAPI_VERSION = '3.1.1';

/** The OpenAPI version of a document that holds a stream operation (its item schemas are 3.2's `itemSchema`). */
export const OPENAPI_STREAMS_VERSION = '3.2.0';

/** Names OpenAPI allows in `components`. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The OpenAPI document of a registry's endpoints mounted at `prefix`, 3.1 ({@link OPENAPI_VERSION}),
 * or 3.2 when it holds a stream operation (`options.version` chooses either): one operation per
 * exposed method (tag: the service, `operationId`: the method's name), bodies and answers in every
 * codec's media type, a stream's item in every stream media type (3.2's `itemSchema`), the declared
 * success status, 304 for a GET with an entity tag, 429 for a rate-limited method, 503 for a method
 * with its own `timeoutMs`, the problem answers each operation can get,
 * named objects in `components.schemas`, and the registry's security schemes. A plain JSON value.
 * Throws a `TypeError` for a descriptor that JSON Schema cannot state as lacquer reads it.
 */
export function openApi(endpoints: Endpoints, options: OpenApiOptions): OpenApiDocument {
  const prefix = checkPrefix(options?.prefix);
  if (typeof options.info?.title !== 'string' || typeof options.info.version !== 'string') {
    throw new TypeError('openApi(): info needs a title and a version: { title: "My API", version: "1.0.0" }');
  }
  const version = options.version;
  if (version !== undefined && version !== '3.1' && version !== '3.2') {
    throw new TypeError(`openApi(): version must be '3.1' or '3.2', got ${JSON.stringify(version)}`);
  }
  const media = mediaForms(endpoints.codecs, options.schemaForms);
  const streams = streamForms(endpoints.codecs, options.schemaForms);
  const schemas = new SchemaComponents(endpoints.opts, new Set([PROBLEM_SCHEMA]));

  const operations = [...endpoints.operations];
  const holdsStream = operations.some(
    (op) => op.contract.returns instanceof StreamType || op.contract.bodyStream !== undefined,
  );
  const itemSchemas = (version ?? (holdsStream ? '3.2' : '3.1')) === '3.2';
  const count = new Map<string, number>();
  for (const op of operations) count.set(op.method, (count.get(op.method) ?? 0) + 1);
  const used = new Set<ProblemStatus>();
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const op of operations) {
    if (!tags.includes(op.service)) tags.push(op.service);
    // Two services may expose the same method name under different verbs: the service tells them apart.
    const operationId = count.get(op.method)! > 1 ? `${op.service}.${op.method}` : op.method;
    const path = prefix + templatePath(op.path);
    (paths[path] ??= {})[op.verb.toLowerCase()] = operationObject(
      op,
      { schemas, media, streams, operationId, itemSchemas },
      used,
    );
  }

  const responses: Record<string, OpenApiObject> = {};
  for (const status of PROBLEM_ORDER) {
    if (used.has(status))
      responses[PROBLEM_RESPONSES[status]] = problemResponseObject(status, media, endpoints.maxBodyBytes);
  }
  const doc: OpenApiDocument = {
    openapi: itemSchemas ? OPENAPI_STREAMS_VERSION : OPENAPI_VERSION,
    info: structuredClone(options.info),
    ...(options.servers === undefined ? {} : { servers: options.servers.map((s) => ({ ...s })) }),
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...schemas.finish(), [PROBLEM_SCHEMA]: problemSchema() },
      responses,
      headers: headerComponents(),
    },
  };
  if (endpoints.securitySchemes.size > 0) {
    for (const name of endpoints.securitySchemes.keys()) {
      if (!COMPONENT_NAME.test(name))
        throw new TypeError(
          `openApi(): the security scheme name '${name}' cannot name an OpenAPI component: use letters, digits, '.', '-' and '_'`,
        );
    }
    doc.components.securitySchemes = Object.fromEntries(
      [...endpoints.securitySchemes].map(([name, scheme]) => [name, { ...scheme.openApi }]),
    );
  }
  return doc;
}

/** A path below the prefix as an OpenAPI path template: a route's `:id` segment is `{id}`. */
function templatePath(path: string): string {
  return path
    .split('/')
    .map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : encodeURIComponent(s)))
    .join('/');
}

/** `'/api'` as given; `'/'` and `''` for the root; no trailing slash. */
function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || (prefix !== '' && !prefix.startsWith('/'))) {
    throw new TypeError(
      `openApi(): prefix must be '' or a path starting with '/', as given to mount(), got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix.replace(/\/+$/, '');
}
