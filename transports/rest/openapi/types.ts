import type { JsonSchema } from '../../../core/schema/json-schema.ts';

/**
 * How a codec's media types are described: `'json'` (bytes as base64 text), `'binary'` (bytes as
 * byte strings, as MessagePack and CBOR write them), or `'none'` (the media type is listed without a
 * schema).
 */
export type SchemaForm = 'json' | 'binary' | 'none';

/** The document's `info`: `title` and `version` are required, the rest as OpenAPI 3.1 defines it. */
export interface OpenApiInfo {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  termsOfService?: string;
  contact?: { name?: string; url?: string; email?: string };
  license?: { name: string; identifier?: string; url?: string };
}

/** One entry of `servers`: `{ url: 'https://api.example.com' }`. */
export interface OpenApiServer {
  url: string;
  description?: string;
}

/** Options of {@link openApi}. */
export interface OpenApiOptions {
  /** Where the endpoints are mounted (`server.mount('/api', ...)`): `'/api'`, or `''` for the root. */
  prefix: string;
  info: OpenApiInfo;
  servers?: readonly OpenApiServer[];
  /**
   * The schema form of each codec's media types, by codec name. Default: `json` is `'json'`,
   * `msgpack` and `cbor` are `'binary'`, any other codec is `'none'` (its media types are listed
   * without a schema, since the document cannot know how it writes bytes).
   */
  schemaForms?: Readonly<Record<string, SchemaForm>>;
  /**
   * The OpenAPI version written: `'3.1'` (3.1.1), or `'3.2'` (3.2.0), whose `itemSchema` states the
   * items of a stream. Default: 3.2 for a document holding a stream operation, else 3.1. In 3.1 a
   * stream's media types are listed without a schema, its framing in the description, for tools that
   * read 3.1 only.
   */
  version?: OpenApiVersion;
}

/** The OpenAPI versions {@link OpenApiOptions.version} chooses between. */
export type OpenApiVersion = '3.1' | '3.2';

/** A JSON object of the document (operations, responses, parameters): plain JSON data. */
export type OpenApiObject = { [key: string]: unknown };

/** The OpenAPI 3.1 document `openApi` returns: a plain JSON value (`JSON.stringify(doc)` works). */
export interface OpenApiDocument {
  openapi: string;
  info: OpenApiInfo;
  servers?: OpenApiServer[];
  tags: { name: string; description?: string }[];
  paths: { [path: string]: { [verb: string]: OpenApiObject } };
  components: {
    schemas: { [name: string]: JsonSchema };
    responses: { [name: string]: OpenApiObject };
    headers: { [name: string]: OpenApiObject };
    securitySchemes?: { [name: string]: OpenApiObject };
  };
}
