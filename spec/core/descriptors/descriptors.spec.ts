import { expect } from 'chai';
import { t, type Infer, type StandardSchemaV1 } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';

/** Compile-time equality: `expectType<Equal<A, B>>(true)` fails to type-check when A and B differ. */
type Equal<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(value: T) => value;

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });

describe('core/descriptors', () => {
  it('infers static types from descriptors', () => {
    const T = t.object({
      id: t.u64(),
      small: t.i8(),
      ok: t.bool(),
      raw: t.bytes(),
      tags: t.array(t.string()),
      scores: t.map(t.f64()),
      pair: t.tuple([t.string(), t.i32()]),
      kind: t.literal('book'),
      color: t.enum(['red', 'green']),
      nick: t.optional(t.string()),
      email: t.nullable(t.string()),
    });
    type Expected = {
      id: bigint;
      small: number;
      ok: boolean;
      raw: Uint8Array;
      tags: string[];
      scores: Record<string, number>;
      pair: [string, number];
      kind: 'book';
      color: 'red' | 'green';
      nick?: string | undefined;
      email: string | null;
    };
    expectType<Equal<Infer<typeof T>, Expected>>(true);
    expectType<Equal<Infer<ReturnType<typeof t.void>>, undefined>>(true);
    const value: Infer<typeof T> = json.decode(T, '{"kind":"book","color":"green"}');
    expect(value.color).to.equal('green');
  });

  it('.default() returns a new descriptor and leaves the original unchanged', () => {
    const limit = t.i32();
    const withDefault = limit.default(10);
    expect(withDefault).not.to.equal(limit);
    expect(json.decode(t.object({ limit: withDefault }), '{}')).to.deep.equal({ limit: 10 });
    expect(json.decode(t.object({ limit }), '{}')).to.deep.equal({ limit: 0 });
  });

  it('reads members in declared order, whatever the order of the document', () => {
    expect(Object.keys(json.decode(User, '{"weight":1,"name":"a","id":2}'))).to.deep.equal(['id', 'name', 'weight']);
  });

  it('refuses a member named __proto__ and an empty enum when the descriptor is made', () => {
    expect(() => t.object(JSON.parse('{"__proto__": 1}') as never)).to.throw(TypeError, '__proto__');
    expect(() => t.enum([])).to.throw(TypeError);
  });

  describe('Standard Schema v1', () => {
    it('describes itself as version 1 from vendor lacquer', () => {
      const props: StandardSchemaV1.Props<unknown, Infer<typeof User>> = User['~standard'];
      expect(props.version).to.equal(1);
      expect(props.vendor).to.equal('lacquer');
    });

    it('validates plain JavaScript values and returns the clean value', () => {
      const result = User['~standard'].validate({ id: 5n, name: 'Ann', weight: 0.5 });
      expect(result).to.deep.equal({ value: { id: 5n, name: 'Ann', weight: 0.5 } });
      const Profile = t.object({ nick: t.optional(t.string()) });
      expect(Profile['~standard'].validate({ nick: undefined })).to.deep.equal({ value: {} });
    });

    it('reports an issue with a message and a path', () => {
      const Shelf = t.object({ users: t.array(User) });
      const result = Shelf['~standard'].validate({
        users: [
          { id: 1n, name: 'a', weight: 1 },
          { id: -1n, name: 'b', weight: 1 },
        ],
      });
      expect(result)
        .to.have.property('issues')
        .that.deep.equals([
          { message: '-1 is outside u64 (0..18446744073709551615) at /users/1/id', path: ['users', 1, 'id'] },
        ]);
    });

    it('takes Uint8Array for bytes, not base64 text', () => {
      const T = t.object({ raw: t.bytes() });
      expect(T['~standard'].validate({ raw: new Uint8Array([1]) })).to.deep.equal({
        value: { raw: new Uint8Array([1]) },
      });
      expect(T['~standard'].validate({ raw: 'AQ==' })).to.have.property('issues');
    });
  });
});
