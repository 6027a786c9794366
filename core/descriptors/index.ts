import { ArrayType } from './array.ts';
import { BigIntType } from './bigint.ts';
import { BoolType } from './bool.ts';
import { BytesType } from './bytes.ts';
import { EnumType, type EnumValue } from './enum.ts';
import { FloatType } from './float.ts';
import { IntType } from './integer.ts';
import { LiteralType, type LiteralValue } from './literal.ts';
import { MapType } from './map.ts';
import { NullableType, nullableOf } from './nullable.ts';
import { ObjectType, type Fields, type ObjectOptions } from './object.ts';
import { OptionalType } from './optional.ts';
import { StringType } from './string.ts';
import { TupleType } from './tuple.ts';
import type { Type } from './type.ts';
import { VoidType } from './void.ts';
import { TimestampType } from './timestamp.ts';
import { UnknownType } from './unknown.ts';
import { VariantType, type VariantMember } from './variant.ts';
import { LazyType } from './lazy.ts';
import { StreamType } from './stream.ts';
import type {
  ArrayConstraints,
  BigIntOptions,
  MapConstraints,
  NumberConstraints,
  StringConstraints,
} from '../kinds/constraint-options.ts';

/** The descriptor factories: `t.object({ id: t.u64(), name: t.string() })`. */
export const t = {
  string: (constraints?: StringConstraints) => new StringType(constraints),
  bool: () => new BoolType(),
  i8: (constraints?: NumberConstraints) => new IntType('i8', constraints),
  i16: (constraints?: NumberConstraints) => new IntType('i16', constraints),
  i32: (constraints?: NumberConstraints) => new IntType('i32', constraints),
  u8: (constraints?: NumberConstraints) => new IntType('u8', constraints),
  u16: (constraints?: NumberConstraints) => new IntType('u16', constraints),
  u32: (constraints?: NumberConstraints) => new IntType('u32', constraints),
  i64: (options?: BigIntOptions) => new BigIntType('i64', options),
  u64: (options?: BigIntOptions) => new BigIntType('u64', options),
  f32: (constraints?: NumberConstraints) => new FloatType('f32', constraints),
  f64: (constraints?: NumberConstraints) => new FloatType('f64', constraints),
  bytes: () => new BytesType(),
  timestamp: () => new TimestampType(),
  unknown: () => new UnknownType(),
  void: () => new VoidType(),
  array: <E extends Type>(element: E, constraints?: ArrayConstraints) => new ArrayType(element, constraints),
  map: <V extends Type>(values: V, constraints?: MapConstraints) => new MapType(values, constraints),
  tuple: <const E extends readonly Type[]>(elements: E) => new TupleType(elements),
  literal: <const V extends LiteralValue>(value: V) => new LiteralType(value),
  enum: <const V extends readonly EnumValue[]>(values: V) => new EnumType(values),
  object: <F extends Fields>(fields: F, options?: ObjectOptions) => new ObjectType(fields, options),
  optional: <T extends Type>(inner: T) => new OptionalType(inner),
  nullable: <T extends Type>(inner: T) => nullableOf(inner),
  variant: <const K extends string, const M extends readonly VariantMember<K>[]>(key: K, members: M) =>
    new VariantType(key, members),
  lazy: <T extends Type>(get: () => T) => new LazyType(get),
  stream: <T extends Type>(item: T) => new StreamType(item),
} as const;

export type { Type, Infer, InferInput, Kind, Defaulted, Described } from './type.ts';
export { StreamType } from './stream.ts';
export type {
  ArrayConstraints,
  BigIntOptions,
  MapConstraints,
  NumberConstraints,
  StringConstraints,
  StringFormat,
} from '../kinds/constraint-options.ts';
export type { VariantMember } from './variant.ts';
export type { Fields, ObjectOptions, RequiresKey } from './object.ts';
export type { IntKind } from './integer.ts';
export type { BigIntKind } from './bigint.ts';
export type { FloatKind } from './float.ts';
export type { LiteralValue } from './literal.ts';
export type { EnumValue } from './enum.ts';
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
};

/** Every concrete descriptor class, for exhaustive switches over `kind`. */
export type AnyType =
  | StringType
  | BoolType
  | IntType
  | BigIntType
  | FloatType
  | BytesType
  | VoidType
  | TimestampType
  | UnknownType
  | ArrayType
  | MapType
  | TupleType
  | LiteralType
  | EnumType
  | ObjectType
  | VariantType
  | LazyType
  | OptionalType
  | NullableType;
