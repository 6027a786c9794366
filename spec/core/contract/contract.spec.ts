import { expect } from 'chai';
import { Registry, meta, method, service, t, type Implementation, type Infer } from '../../../core/index.ts';
import { contractOf } from '../../../core/contract/meta.ts';

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });
type User = Infer<typeof User>;

const UserContract = service({
  getAllUsers: method([], t.array(User)),
  getUserById: method([t.u64()], User),
  rename: method([t.u64(), t.string()], t.void()),
});

describe('core/contract', () => {
  describe('type checking (tsc checks this file: each @ts-expect-error must be an error)', () => {
    it('accepts a class whose methods match, sync or async', () => {
      class Users {
        getAllUsers(): User[] { return []; }
        async getUserById(id: bigint): Promise<User> { return { id, name: '', weight: 0 }; }
        rename(_id: bigint, _name: string): void {}
        helper(): number { return 1; }
      }
      expect(meta(Users, UserContract)).to.equal(UserContract);
    });

    it('rejects a parameter of the wrong type', () => {
      class Users {
        getAllUsers(): User[] { return []; }
        getUserById(id: number): User { return { id: BigInt(id), name: '', weight: 0 }; }
        rename(_id: bigint, _name: string): void {}
      }
      // @ts-expect-error getUserById takes a bigint (t.u64), not a number
      meta(Users, UserContract);
    });

    it('rejects a return value of the wrong type, also behind a promise', () => {
      class Users {
        getAllUsers(): User[] { return []; }
        async getUserById(_id: bigint): Promise<string> { return ''; }
        rename(_id: bigint, _name: string): void {}
      }
      // @ts-expect-error getUserById must resolve to a User
      meta(Users, UserContract);
    });

    it('rejects a class lacking a listed method', () => {
      class Users {
        getAllUsers(): User[] { return []; }
        getUserById(id: bigint): User { return { id, name: '', weight: 0 }; }
      }
      // @ts-expect-error rename is missing
      meta(Users, UserContract);
    });

    it('rejects parameters in the wrong order', () => {
      class Users {
        getAllUsers(): User[] { return []; }
        getUserById(id: bigint): User { return { id, name: '', weight: 0 }; }
        rename(_name: string, _id: bigint): void {}
      }
      // @ts-expect-error rename takes (bigint, string)
      meta(Users, UserContract);
    });

    it('types the implementation of a contract', () => {
      const impl: Implementation<typeof UserContract.methods> = {
        getAllUsers: () => [],
        getUserById: async (id) => ({ id, name: 'n', weight: 1 }),
        rename: () => {},
      };
      expect(Object.keys(impl)).to.have.length(3);
    });
  });

  describe('binding', () => {
    it('binds the contract to the class and its subclasses', () => {
      class Base { ping() { return 'pong'; } }
      class Derived extends Base {}
      const contract = meta(Base, service({ ping: method([], t.string()) }));
      expect(contractOf(new Base())).to.equal(contract);
      expect(contractOf(new Derived())).to.equal(contract);
      expect(contractOf({})).to.equal(undefined);
    });

    it('service() refuses something that is not a method(...)', () => {
      expect(() => service({ x: 5 } as never)).to.throw(TypeError, /'x' is not a method/);
    });
  });

  describe('registration errors are early and clear', () => {
    it('an instance without meta is a TypeError naming the class', () => {
      class Orphan { getThing() { return 1; } }
      expect(() => new Registry().on(new Orphan())).to.throw(TypeError, /Orphan has no contract.*meta\(Orphan/);
    });

    it('a listed method the instance lacks is a TypeError naming both', () => {
      class Partial { a() { return 'a'; } }
      meta(Partial, service({ a: method([], t.string()) }));
      const broken = new Partial();
      (broken as unknown as Record<string, unknown>).a = undefined;
      expect(() => new Registry().on(broken)).to.throw(TypeError, /Partial lists 'a' in its contract but has no such method/);
    });

    it('two services claiming the same verb and path is an error, and nothing of the second is registered', () => {
      class One { getStatus() { return 'one'; } other() { return 1; } }
      class Two { zzz() { return 2; } getStatus() { return 'two'; } }
      meta(One, service({ getStatus: method([], t.string()), other: method([], t.u8()) }));
      meta(Two, service({ zzz: method([], t.u8()), getStatus: method([], t.string()) }));
      const registry = new Registry().on(new One());
      expect(() => registry.on(new Two())).to.throw(/Two exposes GET \/getStatus, already exposed by One/);
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/getStatus', '/other']);
    });

    it('the same path under two verbs is allowed', () => {
      class A { getX() { return 'a'; } }
      class B { getX() { return 'b'; } }
      meta(A, service({ getX: method([], t.string()) }));
      meta(B, service({ getX: method([], t.string(), { verb: 'POST' }) }));
      const registry = new Registry().on(new A()).on(new B());
      expect([...registry.endpoints.routes.get('/getX')!.keys()]).to.deep.equal(['GET', 'POST']);
    });

    it('exposes listed methods only', () => {
      class Svc { shown() { return 's'; } hidden() { return 'h'; } }
      meta(Svc, service({ shown: method([], t.string()) }));
      const registry = new Registry().on(new Svc());
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/shown']);
    });
  });
});
