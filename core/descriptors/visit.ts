import type { ArrayType } from './array.ts';
import type { BigIntType } from './bigint.ts';
import type { BoolType } from './bool.ts';
import type { BytesType } from './bytes.ts';
import type { EnumType } from './enum.ts';
import type { FloatType } from './float.ts';
import type { IntType } from './integer.ts';
import type { LazyType } from './lazy.ts';
import type { LiteralType } from './literal.ts';
import type { MapType } from './map.ts';
import type { NullableType } from './nullable.ts';
import type { ObjectType } from './object.ts';
import type { OptionalType } from './optional.ts';
import type { StringType } from './string.ts';
import type { TimestampType } from './timestamp.ts';
import type { TupleType } from './tuple.ts';
import type { Kind, Type } from './type.ts';
import type { UnknownType } from './unknown.ts';
import type { VariantType } from './variant.ts';
import type { VoidType } from './void.ts';

/**
 * Every form a descriptor takes, one per descriptor class: the kinds that share a class (the six
 * integers, the two 64-bit integers, the two floats) share a form.
 */
export interface Forms {
  string: StringType;
  bool: BoolType;
  int: IntType;
  bigint: BigIntType;
  float: FloatType;
  bytes: BytesType;
  timestamp: TimestampType;
  unknown: UnknownType;
  void: VoidType;
  literal: LiteralType;
  enum: EnumType;
  array: ArrayType;
  map: MapType;
  tuple: TupleType;
  object: ObjectType;
  variant: VariantType;
  lazy: LazyType;
  optional: OptionalType;
  nullable: NullableType;
}

export type Form = keyof Forms;

/**
 * What a walk over descriptors does with each form. Every form is required: a walker written as a
 * `Visitor` that misses one (or that a new form is added without) does not compile.
 */
export type Visitor<R, A extends readonly unknown[] = []> = {
  readonly [F in Form]: (d: Forms[F], ...args: A) => R;
};

/** The form of each kind. */
const FORM_OF: { readonly [K in Kind]: Form } = {
  string: 'string',
  bool: 'bool',
  i8: 'int',
  i16: 'int',
  i32: 'int',
  u8: 'int',
  u16: 'int',
  u32: 'int',
  i64: 'bigint',
  u64: 'bigint',
  f32: 'float',
  f64: 'float',
  bytes: 'bytes',
  timestamp: 'timestamp',
  unknown: 'unknown',
  void: 'void',
  literal: 'literal',
  enum: 'enum',
  array: 'array',
  map: 'map',
  tuple: 'tuple',
  object: 'object',
  variant: 'variant',
  lazy: 'lazy',
  optional: 'optional',
  nullable: 'nullable',
};

/** The form of a descriptor; a `TypeError` for what is no value descriptor (`t.stream(T)`). */
export function formOf(type: Type): Form {
  const form = FORM_OF[type.kind] as Form | undefined;
  if (form === undefined)
    throw new TypeError(
      `${describeKind(type)} is not a descriptor of a value: a stream can only be what a method returns`,
    );
  return form;
}

function describeKind(type: unknown): string {
  const kind = (type as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? `t.${kind}()` : 'this';
}

/** Calls the visitor's member for the descriptor's form. */
export function visit<R, A extends readonly unknown[]>(type: Type, visitor: Visitor<R, A>, ...args: A): R {
  const step = visitor[formOf(type)] as (d: Type, ...args: A) => R;
  return step(type, ...args);
}
