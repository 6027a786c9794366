// Infer and InferInput of variants, recursive descriptors and defaults. tsc checks this file: each
// assertType must hold, each @ts-expect-error must be an error; the tests also read a value.
import { expect } from 'chai';
import { t, type Infer, type InferInput, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
/** Compiles only when `T` is `true`. */
const assertType = <T extends true>(): T | undefined => undefined;

const Circle = t.object({ type: t.literal('circle'), r: t.f64(), fill: t.string().default('none') });
const Square = t.object({ type: t.literal('square'), side: t.f64(), label: t.optional(t.string()) });
const Shape = t.variant('type', [Circle, Square]);

describe('core/descriptors: Infer and InferInput (type-level)', () => {
  it("a variant reads as the union of its members; its input lets each member's defaulted keys be absent", () => {
    assertType<
      Equal<
        Infer<typeof Shape>,
        { type: 'circle'; r: number; fill: string } | { type: 'square'; side: number; label?: string | undefined }
      >
    >();
    assertType<
      Equal<
        InferInput<typeof Shape>,
        { type: 'circle'; r: number; fill?: string } | { type: 'square'; side: number; label?: string | undefined }
      >
    >();
    const shape = json.decode(Shape, '{"type":"circle","r":1}');
    // The discriminant narrows the union.
    if (shape.type === 'circle') assertType<Equal<typeof shape.fill, string>>();
    expect(shape).to.deep.equal({ type: 'circle', r: 1, fill: 'none' });
    const input: InferInput<typeof Shape> = { type: 'circle', r: 1 };
    // @ts-expect-error a circle has no side
    const wrong: InferInput<typeof Shape> = { type: 'circle', r: 1, side: 2 };
    // @ts-expect-error "triangle" is no member's discriminant
    const unknownTag: Infer<typeof Shape> = { type: 'triangle', r: 1, fill: '' };
    expect([input, wrong, unknownTag]).to.have.length(3);
  });

  it('t.lazy infers as its target; a recursive descriptor is typed by its annotation', () => {
    interface Category {
      name: string;
      sub: Category[];
    }
    const Category: Type<Category> = t.object({ name: t.string(), sub: t.array(t.lazy(() => Category)) });
    assertType<Equal<Infer<typeof Category>, Category>>();
    const Holder = t.object({ c: t.lazy(() => Category), n: t.lazy(() => t.u8().default(3)) });
    assertType<Equal<Infer<typeof Holder>, { c: Category; n: number }>>();
    // The default is on the target, not the lazy node: the writer still needs n.
    assertType<Equal<InferInput<typeof Holder>, { c: Category; n: number }>>();
    const Own = t.object({ n: t.lazy(() => t.u8()).default(3) });
    assertType<Equal<InferInput<typeof Own>, { n?: number }>>();
    expect(json.decode(Holder, '{"c":{"name":"a","sub":[]}}')).to.deep.equal({ c: { name: 'a', sub: [] }, n: 3 });
  });

  it('.default() keeps Infer and makes the key optional in InferInput, at any depth', () => {
    const Page = t.object({
      size: t.u16().default(20),
      after: t.optional(t.string()),
      filter: t.object({ q: t.string(), exact: t.bool().default(false) }),
    });
    assertType<
      Equal<Infer<typeof Page>, { size: number; after?: string | undefined; filter: { q: string; exact: boolean } }>
    >();
    assertType<
      Equal<
        InferInput<typeof Page>,
        { size?: number; after?: string | undefined; filter: { q: string; exact?: boolean } }
      >
    >();
    const Pages = t.array(Page);
    assertType<Equal<InferInput<typeof Pages>, InferInput<typeof Page>[]>>();
    // @ts-expect-error the default must be a value the descriptor reads to
    t.u16().default('20');
    expect(json.decode(Page, '{"filter":{"q":"x"}}')).to.deep.equal({ size: 20, filter: { q: 'x', exact: false } });
  });

  it('t.timestamp() is a Date and t.unknown() is unknown', () => {
    const Event = t.object({ at: t.timestamp(), payload: t.unknown() });
    assertType<Equal<Infer<typeof Event>['at'], Date>>();
    assertType<Equal<Infer<typeof Event>['payload'], unknown>>();
    expect(json.decode(Event, '{"at":"1970-01-01T00:00:00Z"}').at.getTime()).to.equal(0);
  });
});
