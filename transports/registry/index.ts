// The registry and the protocols it serves (REST, JSON-RPC, MCP), with what they share, re-exported
// by the `lacquerjs` entry (index.ts). Routing, negotiation and CORS internals are imported by the
// adapters from their own files in transports/protocol/.
export { JSONRPC, MCP, Registry, REST } from './registry.ts';
export type { Protocol, ServiceMountOptions } from './registry.ts';
export { Endpoints } from '../protocol/pipeline/endpoints.ts';
export type { Operation } from '../protocol/pipeline/endpoints.ts';
export {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ITEM_BYTES,
  DEFAULT_MAX_STREAM_BYTES,
  DEFAULT_STREAM_IDLE_MS,
} from '../protocol/options.ts';
export type { ErrorContext, McpOptions, RegistryOptions, ResponseReport } from '../protocol/options.ts';
export { RpcCode } from '../jsonrpc/messages.ts';
export type {
  ClientSpan,
  ClientSpanStart,
  ServerSpan,
  ServerSpanStart,
  Telemetry,
} from '../protocol/call/telemetry.ts';
export { apiKeyAuth, basicAuth, bearerAuth, DEFAULT_MAX_CREDENTIAL_LENGTH } from '../protocol/call/security.ts';
export type {
  ApiKeyOptions,
  BasicCredentials,
  Credential,
  CredentialSource,
  HttpAuthOptions,
  SecurityScheme,
} from '../protocol/call/security.ts';
export type { Interceptor } from '../protocol/call/interceptors.ts';
export { requestIdFor } from '../protocol/pipeline/request-id.ts';
export { clientAddress } from '../protocol/client-address.ts';
export type { TrustProxy } from '../protocol/client-address.ts';
export { DEFAULT_CODECS } from '../protocol/default-codecs.ts';
export { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from '../protocol/call/rate-limit-store.ts';
export type { RateLimitOptions } from '../protocol/call/rate-limit.ts';
export { Problem, problem, problemForError, problemResponse, statusText } from '../protocol/problem.ts';
export type { ProblemDocument } from '../protocol/problem.ts';
export type {
  AnswerBody,
  BodySource,
  EndpointRequest,
  EndpointResponse,
  Frames,
  Handler,
  HeaderReader,
  HeaderValues,
} from '../protocol/types.ts';
export { DEFAULT_EXPOSED_HEADERS } from '../protocol/pipeline/cors.ts';
export type { CorsOptions } from '../protocol/pipeline/cors.ts';
export type { MountableEndpoints } from '../protocol/pipeline/route-table.ts';
export { openApi } from '../rest/openapi/index.ts';
export type {
  OpenApiDocument,
  OpenApiInfo,
  OpenApiObject,
  OpenApiOptions,
  OpenApiServer,
  OpenApiVersion,
  SchemaForm,
} from '../rest/openapi/index.ts';
