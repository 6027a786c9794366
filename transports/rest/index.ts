// The REST protocol, re-exported by the `lacquerjs` entry (index.ts): what the HTTP server, the
// fetch handler and the client share. Routing, negotiation and CORS internals are imported by the
// adapters from their own files.
export { JSONRPC, MCP, Registry, REST } from './registry.ts';
export type { Protocol, ServiceMountOptions } from './registry.ts';
export { Endpoints } from './endpoints.ts';
export type { Operation } from './endpoints.ts';
export {
  DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_ITEM_BYTES, DEFAULT_MAX_STREAM_BYTES, DEFAULT_STREAM_IDLE_MS,
} from './options.ts';
export type { ErrorContext, McpOptions, RegistryOptions, ResponseReport } from './options.ts';
export { RpcCode } from './jsonrpc/messages.ts';
export type { ClientSpan, ClientSpanStart, ServerSpan, ServerSpanStart, Telemetry } from './telemetry.ts';
export { apiKeyAuth, basicAuth, bearerAuth, DEFAULT_MAX_CREDENTIAL_LENGTH } from './security.ts';
export type { ApiKeyOptions, BasicCredentials, Credential, CredentialSource, HttpAuthOptions, SecurityScheme } from './security.ts';
export type { Interceptor } from './interceptors.ts';
export { requestIdFor } from './pipeline/request-id.ts';
export { clientAddress } from './client-address.ts';
export type { TrustProxy } from './client-address.ts';
export { DEFAULT_CODECS } from './default-codecs.ts';
export { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from './rate-limit-store.ts';
export type { RateLimitOptions } from './rate-limit.ts';
export { Problem, problem, problemForError, problemResponse, statusText } from './problem.ts';
export type { ProblemDocument } from './problem.ts';
export type { AnswerBody, BodySource, EndpointRequest, EndpointResponse, Frames, Handler, HeaderReader, HeaderValues } from './types.ts';
export { DEFAULT_EXPOSED_HEADERS } from './pipeline/cors.ts';
export type { CorsOptions } from './pipeline/cors.ts';
export type { MountableEndpoints } from './route-table.ts';
export { openApi } from './openapi/index.ts';
export type { OpenApiDocument, OpenApiInfo, OpenApiObject, OpenApiOptions, OpenApiServer, OpenApiVersion, SchemaForm } from './openapi/index.ts';
