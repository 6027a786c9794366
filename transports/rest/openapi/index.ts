// OpenAPI 3.1 documents (3.2 with stream operations) of a registry's endpoints: `openApi(registry.endpoints, { prefix, info })`.
export { openApi, OPENAPI_STREAMS_VERSION, OPENAPI_VERSION } from './document.ts';
export type {
  OpenApiDocument,
  OpenApiInfo,
  OpenApiObject,
  OpenApiOptions,
  OpenApiServer,
  OpenApiVersion,
  SchemaForm,
} from './types.ts';
