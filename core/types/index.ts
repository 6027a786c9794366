import { ArrayType } from './array.ts';
import { BigIntType } from './bigint.ts';
import { BoolType } from './bool.ts';
import { BytesType } from './bytes.ts';
import { EnumType, type EnumValue } from './enum.ts';
import { FloatType } from './float.ts';
import { IntType } from './integer.ts';
import { LiteralType, type LiteralValue } from './literal.ts';
import { MapType } from './map.ts';
import { NullableType } from './nullable.ts';
import { ObjectType, type Fields, type ObjectOptions } from './object.ts';
import { OptionalType } from './optional.ts';
import { StringType } from './string.ts';
import { TupleType } from './tuple.ts';
import type { Type } from './type.ts';
import { VoidType } from './void.ts';

/** The descriptor factories: `t.object({ id: t.u64(), name: t.string() })`. */
export const t = {
  string: () => new StringType(),
  bool: () => new BoolType(),
  i8: () => new IntType('i8'),
  i16: () => new IntType('i16'),
  i32: () => new IntType('i32'),
  u8: () => new IntType('u8'),
  u16: () => new IntType('u16'),
  u32: () => new IntType('u32'),
  i64: () => new BigIntType('i64'),
  u64: () => new BigIntType('u64'),
  f32: () => new FloatType('f32'),
  f64: () => new FloatType('f64'),
  bytes: () => new BytesType(),
  void: () => new VoidType(),
  array: <E extends Type>(element: E) => new ArrayType(element),
  map: <V extends Type>(values: V) => new MapType(values),
  tuple: <const E extends readonly Type[]>(elements: E) => new TupleType(elements),
  literal: <const V extends LiteralValue>(value: V) => new LiteralType(value),
  enum: <const V extends readonly EnumValue[]>(values: V) => new EnumType(values),
  object: <F extends Fields>(fields: F, options?: ObjectOptions) => new ObjectType(fields, options),
  optional: <T extends Type>(inner: T) => new OptionalType(inner),
  nullable: <T extends Type>(inner: T) => new NullableType(inner),
} as const;

export type { Type, Infer, Kind } from './type.ts';
export type { Fields, ObjectOptions, RequiresKey } from './object.ts';
export type { IntKind } from './integer.ts';
export type { BigIntKind } from './bigint.ts';
export type { FloatKind } from './float.ts';
export type { LiteralValue } from './literal.ts';
export type { EnumValue } from './enum.ts';
export {
  ArrayType, BigIntType, BoolType, BytesType, EnumType, FloatType, IntType, LiteralType, MapType,
  NullableType, ObjectType, OptionalType, StringType, TupleType, VoidType,
};

/** Every concrete descriptor class, for exhaustive switches over `kind`. */
export type AnyType =
  | StringType | BoolType | IntType | BigIntType | FloatType | BytesType | VoidType
  | ArrayType | MapType | TupleType | LiteralType | EnumType | ObjectType | OptionalType | NullableType;
