// The `lacquerjs` entry point, above the layers: descriptors, reading options and errors, JSON
// Schema, service contracts and the Codec interface from core/, and the REST protocol (registry,
// problem documents, security schemes, OpenAPI) from transports/rest, so that one import gives a
// service author everything (bundlers drop what is not used). No shipped module imports this file.

// ---- For users ----------------------------------------------------------------------------------

export { t } from './core/descriptors/index.ts';
export type {
  AnyType,
  ArrayConstraints,
  BigIntKind,
  BigIntOptions,
  Defaulted,
  Described,
  EnumValue,
  Fields,
  FloatKind,
  Infer,
  InferInput,
  IntKind,
  Kind,
  LiteralValue,
  MapConstraints,
  NumberConstraints,
  ObjectOptions,
  RequiresKey,
  StringConstraints,
  StringFormat,
  Type,
  VariantMember,
} from './core/descriptors/index.ts';
export {
  ArrayType,
  BigIntType,
  BoolType,
  BytesType,
  EnumType,
  FloatType,
  IntType,
  LiteralType,
  MapType,
  NullableType,
  ObjectType,
  OptionalType,
  StringType,
  TupleType,
  VoidType,
  TimestampType,
  UnknownType,
  VariantType,
  LazyType,
  StreamType,
} from './core/descriptors/index.ts';
export { MAX_READ_ERRORS, ReadError } from './core/errors/read-error.ts';
export { MAX_SHOWN_CHARS } from './core/errors/shown-text.ts';
export type { ReadErrorEntry } from './core/errors/read-error.ts';
export { WriteError } from './core/errors/write-error.ts';
export { HttpError, InvalidArgument } from './core/errors/http-error.ts';
export type { HttpErrorOptions } from './core/errors/http-error.ts';
export type { ErrorCode } from './core/errors/codes.ts';
export { DEFAULT_BYTES_PER_ITEM, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS } from './core/options.ts';
export type { MissingKeys, Opts, ReadOptions, WriteOptions } from './core/options.ts';
export { jsonSchema, writeJsonSchema, JSON_SCHEMA_DIALECT } from './core/schema/json-schema.ts';
export type { JsonSchema } from './core/schema/json-schema.ts';
export { standardSchema } from './core/standard-schema.ts';
export type { StandardSchemaV1 } from './core/descriptors/standard-schema-v1.ts';
export type { Codec, ItemScanner, ParsedMessage } from './core/codec.ts';
export { method, service, meta, contextKey, ContextKey, SseItem, sse } from './core/contract/index.ts';
export type {
  Call,
  Contract,
  EndpointVerb,
  HttpMethod,
  Implementation,
  InferParams,
  InferReturn,
  Method,
  MethodContract,
  MethodOptions,
  Methods,
  NamedArguments,
  NamedParams,
  Params,
  Returns,
  RouteSpec,
  ServiceClass,
  ServiceOptions,
  SseOptions,
} from './core/contract/index.ts';
export {
  DEFAULT_CODECS,
  DEFAULT_EXPOSED_HEADERS,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ITEM_BYTES,
  DEFAULT_MAX_STREAM_BYTES,
  DEFAULT_STREAM_IDLE_MS,
  Endpoints,
  JSONRPC,
  MCP,
  REST,
  Registry,
  RpcCode,
} from './transports/registry/index.ts';
export type {
  ClientSpan,
  ClientSpanStart,
  CorsOptions,
  ErrorContext,
  McpOptions,
  MountableEndpoints,
  Operation,
  Protocol,
  RegistryOptions,
  ResponseReport,
  ServerSpan,
  ServerSpanStart,
  ServiceMountOptions,
  Telemetry,
} from './transports/registry/index.ts';
export { apiKeyAuth, basicAuth, bearerAuth, DEFAULT_MAX_CREDENTIAL_LENGTH } from './transports/registry/index.ts';
export type {
  ApiKeyOptions,
  BasicCredentials,
  Credential,
  CredentialSource,
  HttpAuthOptions,
  Interceptor,
  SecurityScheme,
  TrustProxy,
} from './transports/registry/index.ts';
export { openApi } from './transports/registry/index.ts';
export { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from './transports/registry/index.ts';
export type { CachePolicy, MethodRateLimit, RateLimitCount, RateLimitStore } from './core/contract/index.ts';
export type { RateLimitOptions } from './transports/registry/index.ts';
export type {
  OpenApiDocument,
  OpenApiInfo,
  OpenApiObject,
  OpenApiOptions,
  OpenApiServer,
  OpenApiVersion,
  SchemaForm,
} from './transports/registry/index.ts';

// ---- For transport and codec authors ------------------------------------------------------------
// What the bundled transports build on: the transport-neutral request and answer of an endpoint,
// and problem documents (RFC 9457) written in a negotiated codec.

export { Problem, problem, problemForError, problemResponse, statusText } from './transports/registry/index.ts';
export { clientAddress, requestIdFor } from './transports/registry/index.ts';
export type {
  AnswerBody,
  BodySource,
  EndpointRequest,
  EndpointResponse,
  Frames,
  Handler,
  HeaderReader,
  HeaderValues,
  ProblemDocument,
} from './transports/registry/index.ts';

// ---- For debugging ------------------------------------------------------------------------------
// Readers and writers run generated code (`new Function`) where the platform allows it, named
// `lacquer/<codec>/<Name>.js` in debuggers and stack traces, and closures where it does not.

export { generatedSource, onGeneratedCodeError } from './core/codegen/fast-path.ts';
export type { GeneratedCodeError, GeneratedCodeErrorHandler } from './core/codegen/fast-path.ts';
