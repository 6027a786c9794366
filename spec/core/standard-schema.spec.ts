// Standard Schema v1: every issue at once with numeric index segments, standardSchema(T, opts) for
// chosen reading options, and the input and output types (tsc checks the type-level cases).
import { expect } from 'chai';
import {
  MAX_READ_ERRORS,
  t,
  standardSchema,
  type Infer,
  type InferInput,
  type StandardSchemaV1,
  type Type,
} from '../../index.ts';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
/** Compiles only when `T` is `true`. */
const assertType = <T extends true>(): T | undefined => undefined;

/** What a Standard Schema says its input and output are. */
type InputOf<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
type OutputOf<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];

/** The issues of a failed validation (validate is synchronous for lacquer). */
function issuesOf(schema: StandardSchemaV1, value: unknown): readonly StandardSchemaV1.Issue[] {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) throw new Error('validate returned a promise');
  if (result.issues === undefined) throw new Error(`expected issues, got the value ${String(result.value)}`);
  return result.issues;
}

const Item = t.object({ sku: t.string({ minLength: 1 }), qty: t.u16().default(1) }, { name: 'Item' });
const Order = t.object({
  items: t.array(Item),
  pair: t.tuple([t.u8(), t.u8()]),
  notes: t.map(t.string()),
  rush: t.bool().default(false),
});

describe('core/standard-schema', () => {
  it('returns every issue, with numbers for array and tuple indices and strings for keys', () => {
    const issues = issuesOf(Order, {
      items: [{ sku: 'a' }, { sku: '', qty: -1 }],
      pair: [1, 'x'],
      notes: { 0: 5 },
    });
    expect(issues).to.deep.equal([
      { message: 'a string of 0 characters is shorter than minLength (1) at /items/1/sku', path: ['items', 1, 'sku'] },
      { message: '-1 is outside u16 (0..65535) at /items/1/qty', path: ['items', 1, 'qty'] },
      { message: 'expected an integer (u8), got a string at /pair/1', path: ['pair', 1] },
      { message: 'expected a string, got the integer 5 at /notes/0', path: ['notes', '0'] },
    ]);
  });

  it("an issue at the root has an empty path; an unknown key's path names the key", () => {
    expect(issuesOf(Order, 'order')).to.deep.equal([
      { message: 'expected an object, got a string at the root', path: [] },
    ]);
    expect(issuesOf(Item, { sku: 'a', colour: 'red' })).to.deep.equal([
      { message: "unknown key 'colour' at the root", path: ['colour'] },
    ]);
  });

  it(`lists at most MAX_READ_ERRORS issues`, () => {
    expect(
      issuesOf(
        t.array(t.bool()),
        Array.from({ length: 500 }, () => 0),
      ),
    ).to.have.length(MAX_READ_ERRORS);
  });

  it('returns the clean value with defaults filled in', () => {
    expect(Order['~standard'].validate({ items: [{ sku: 'a' }], pair: [1, 2], notes: {} })).to.deep.equal({
      value: { items: [{ sku: 'a', qty: 1 }], pair: [1, 2], notes: {}, rush: false },
    });
  });

  describe('standardSchema(T, opts)', () => {
    it('validates with the reading options given', () => {
      const strict = standardSchema(Item, { errorOnMissingKeys: true });
      expect(issuesOf(strict, { qty: 2 })).to.deep.equal([
        { message: "missing required key 'sku' at the root", path: ['sku'] },
      ]);
      expect(strict['~standard'].validate({ sku: 'a', qty: 2 })).to.deep.equal({ value: { sku: 'a', qty: 2 } });
      const loose = standardSchema(Item, { errorOnUnknownKeys: false });
      expect(loose['~standard'].validate({ sku: 'a', colour: 'red' })).to.deep.equal({ value: { sku: 'a', qty: 1 } });
      const shallow = standardSchema(t.array(t.array(t.u8())), { maxDepth: 1 });
      expect(issuesOf(shallow, [[1]])).to.deep.equal([
        { message: 'nesting deeper than maxDepth (1) at /0', path: [0] },
      ]);
    });

    it("with no options validates as the descriptor's own ~standard does", () => {
      const value = { sku: 'a', colour: 'red' };
      expect(standardSchema(Item)['~standard'].validate(value)).to.deep.equal(Item['~standard'].validate(value));
      expect(standardSchema(Item)['~standard']).to.include({ version: 1, vendor: 'lacquer' });
    });

    it('is made once per descriptor and options', () => {
      expect(standardSchema(Item, { errorOnMissingKeys: true })).to.equal(
        standardSchema(Item, { errorOnMissingKeys: true }),
      );
      expect(standardSchema(Item, { errorOnMissingKeys: true })).to.not.equal(standardSchema(Item));
    });
  });

  describe('types (tsc checks these)', () => {
    it('input is InferInput (defaulted members may be absent), output is Infer', () => {
      assertType<Equal<InputOf<typeof Item>, { sku: string; qty?: number }>>();
      assertType<Equal<OutputOf<typeof Item>, { sku: string; qty: number }>>();
      assertType<Equal<InputOf<typeof Item>, InferInput<typeof Item>>>();
      assertType<Equal<OutputOf<typeof Item>, Infer<typeof Item>>>();
      const schema = standardSchema(Order, { errorOnMissingKeys: true });
      assertType<Equal<InputOf<typeof schema>, InferInput<typeof Order>>>();
      assertType<Equal<OutputOf<typeof schema>, Infer<typeof Order>>>();
      // @ts-expect-error the output of Item has qty always
      assertType<Equal<OutputOf<typeof Item>, { sku: string; qty?: number }>>();
      expect(schema['~standard'].types).to.equal(undefined);
    });

    it('a descriptor is a StandardSchemaV1 of its input and output', () => {
      const asSchema: StandardSchemaV1<InferInput<typeof Order>, Infer<typeof Order>> = Order;
      const generic = <T extends Type>(type: T): StandardSchemaV1<InferInput<T>, Infer<T>> => standardSchema(type);
      expect(generic(Order)['~standard'].vendor).to.equal(asSchema['~standard'].vendor);
    });
  });
});
