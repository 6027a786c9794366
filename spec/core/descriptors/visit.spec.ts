import { expect } from 'chai';
import {
  ArrayType,
  BigIntType,
  BoolType,
  BytesType,
  EnumType,
  FloatType,
  IntType,
  LazyType,
  LiteralType,
  MapType,
  NullableType,
  ObjectType,
  OptionalType,
  StringType,
  TimestampType,
  TupleType,
  UnknownType,
  VariantType,
  VoidType,
  t,
  type Type,
} from '../../../core/descriptors/index.ts';
import { formOf, visit, type Form, type Forms, type Visitor } from '../../../core/descriptors/visit.ts';

/** One descriptor of every kind, with the class its form stands for. */
const everyKind: readonly [Type, Function][] = [
  [t.string(), StringType],
  [t.bool(), BoolType],
  [t.i8(), IntType],
  [t.i16(), IntType],
  [t.i32(), IntType],
  [t.u8(), IntType],
  [t.u16(), IntType],
  [t.u32(), IntType],
  [t.i64(), BigIntType],
  [t.u64(), BigIntType],
  [t.f32(), FloatType],
  [t.f64(), FloatType],
  [t.bytes(), BytesType],
  [t.timestamp(), TimestampType],
  [t.unknown(), UnknownType],
  [t.void(), VoidType],
  [t.literal('a'), LiteralType],
  [t.enum(['a', 'b']), EnumType],
  [t.array(t.bool()), ArrayType],
  [t.map(t.bool()), MapType],
  [t.tuple([]), TupleType],
  [t.object({}), ObjectType],
  [t.variant('k', [t.object({ k: t.literal('a') })]), VariantType],
  [t.lazy(() => t.bool()), LazyType],
  [t.optional(t.bool()), OptionalType],
  [t.nullable(t.bool()), NullableType],
];

/** A visitor that names the form it was called for, and checks it received that form's class. */
const namer: Visitor<Form, [Function]> = {
  string: (d, c) => (expect(d).to.be.instanceOf(c), 'string'),
  bool: (d, c) => (expect(d).to.be.instanceOf(c), 'bool'),
  int: (d, c) => (expect(d).to.be.instanceOf(c), 'int'),
  bigint: (d, c) => (expect(d).to.be.instanceOf(c), 'bigint'),
  float: (d, c) => (expect(d).to.be.instanceOf(c), 'float'),
  bytes: (d, c) => (expect(d).to.be.instanceOf(c), 'bytes'),
  timestamp: (d, c) => (expect(d).to.be.instanceOf(c), 'timestamp'),
  unknown: (d, c) => (expect(d).to.be.instanceOf(c), 'unknown'),
  void: (d, c) => (expect(d).to.be.instanceOf(c), 'void'),
  literal: (d, c) => (expect(d).to.be.instanceOf(c), 'literal'),
  enum: (d, c) => (expect(d).to.be.instanceOf(c), 'enum'),
  array: (d, c) => (expect(d).to.be.instanceOf(c), 'array'),
  map: (d, c) => (expect(d).to.be.instanceOf(c), 'map'),
  tuple: (d, c) => (expect(d).to.be.instanceOf(c), 'tuple'),
  object: (d, c) => (expect(d).to.be.instanceOf(c), 'object'),
  variant: (d, c) => (expect(d).to.be.instanceOf(c), 'variant'),
  lazy: (d, c) => (expect(d).to.be.instanceOf(c), 'lazy'),
  optional: (d, c) => (expect(d).to.be.instanceOf(c), 'optional'),
  nullable: (d, c) => (expect(d).to.be.instanceOf(c), 'nullable'),
};

describe('descriptor visitors', () => {
  it('call the member of the descriptor’s form, with the descriptor of that form’s class', () => {
    for (const [d, c] of everyKind) expect(visit(d, namer, c)).to.equal(formOf(d));
  });

  it('cover every kind: each factory’s descriptor has a form, and every form is met', () => {
    const met = new Set(everyKind.map(([d]) => formOf(d)));
    expect([...met].sort()).to.deep.equal(Object.keys(namer).sort());
  });

  // The next two are type checks: `tsc --noEmit` (the first step of `npm test`) fails when a
  // `@ts-expect-error` below has no error to expect, that is when the rule it states breaks.
  it('do not compile when a form is missing', () => {
    // @ts-expect-error: a visitor without `tuple` is not a Visitor.
    const missing: Visitor<number> = {
      string: () => 0,
      bool: () => 0,
      int: () => 0,
      bigint: () => 0,
      float: () => 0,
      bytes: () => 0,
      timestamp: () => 0,
      unknown: () => 0,
      void: () => 0,
      literal: () => 0,
      enum: () => 0,
      array: () => 0,
      map: () => 0,
      object: () => 0,
      variant: () => 0,
      lazy: () => 0,
      optional: () => 0,
      nullable: () => 0,
    };
    expect(Object.keys(missing)).to.not.include('tuple');
  });

  it('give each member the descriptor class of its form', () => {
    // @ts-expect-error: the `array` member receives an ArrayType, which has no `fields`.
    const wrong: Visitor<unknown>['array'] = (d: Forms['object']) => d.fields;
    expect(wrong).to.be.a('function');
  });
});
