// The `lacquer` entry point: descriptors, errors, options, JSON Schema and the Codec interface.
export { t } from './types/index.ts';
export type {
  AnyType, BigIntKind, EnumValue, Fields, FloatKind, Infer, IntKind, Kind, LiteralValue, ObjectOptions,
  RequiresKey, Type,
} from './types/index.ts';
export {
  ArrayType, BigIntType, BoolType, BytesType, EnumType, FloatType, IntType, LiteralType, MapType,
  NullableType, ObjectType, OptionalType, StringType, TupleType, VoidType,
} from './types/index.ts';
export { ReadError } from './errors/read-error.ts';
export { WriteError } from './errors/write-error.ts';
export type { ErrorCode } from './errors/codes.ts';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH } from './options.ts';
export type { Opts, ReadOptions, WriteOptions } from './options.ts';
export { jsonSchema, writeJsonSchema, JSON_SCHEMA_DIALECT } from './schema/json-schema.ts';
export type { JsonSchema } from './schema/json-schema.ts';
export type { StandardSchemaV1 } from './standard-schema.ts';
export type { Codec } from '../codecs/codec.ts';
export { method, service, meta } from './contract/index.ts';
export type {
  Contract, EndpointVerb, Implementation, InferParams, InferReturn, Method, MethodContract, MethodOptions, Methods,
  ServiceClass,
} from './contract/index.ts';
export { HttpError, InvalidArgument } from './errors/http-error.ts';
export type { HttpErrorOptions } from './errors/http-error.ts';
export {
  DEFAULT_CODECS, DEFAULT_MAX_BODY_BYTES, Endpoints, Problem, REST, Registry, problem, problemForError, problemResponse,
  statusText,
} from './registry/index.ts';
export type {
  EndpointRequest, EndpointResponse, ErrorContext, Handler, HeaderReader, ProblemDocument, Protocol, RegistryOptions,
} from './registry/index.ts';
