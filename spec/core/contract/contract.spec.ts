import { expect } from 'chai';
import {
  ContextKey,
  Registry,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type Implementation,
  type Infer,
} from '../../../index.ts';
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
        getAllUsers(): User[] {
          return [];
        }
        async getUserById(id: bigint): Promise<User> {
          return { id, name: '', weight: 0 };
        }
        rename(_id: bigint, _name: string): void {}
        helper(): number {
          return 1;
        }
      }
      expect(meta(Users, UserContract)).to.equal(UserContract);
    });

    it('rejects a parameter of the wrong type', () => {
      class Users {
        getAllUsers(): User[] {
          return [];
        }
        getUserById(id: number): User {
          return { id: BigInt(id), name: '', weight: 0 };
        }
        rename(_id: bigint, _name: string): void {}
      }
      // @ts-expect-error getUserById takes a bigint (t.u64), not a number
      meta(Users, UserContract);
    });

    it('rejects a return value of the wrong type, also behind a promise', () => {
      class Users {
        getAllUsers(): User[] {
          return [];
        }
        async getUserById(_id: bigint): Promise<string> {
          return '';
        }
        rename(_id: bigint, _name: string): void {}
      }
      // @ts-expect-error getUserById must resolve to a User
      meta(Users, UserContract);
    });

    it('rejects a class lacking a listed method', () => {
      class Users {
        getAllUsers(): User[] {
          return [];
        }
        getUserById(id: bigint): User {
          return { id, name: '', weight: 0 };
        }
      }
      // @ts-expect-error rename is missing
      meta(Users, UserContract);
    });

    it('rejects parameters in the wrong order', () => {
      class Users {
        getAllUsers(): User[] {
          return [];
        }
        getUserById(id: bigint): User {
          return { id, name: '', weight: 0 };
        }
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

  describe('calls (type checking: tsc checks this file, each @ts-expect-error must be an error)', () => {
    const Book = t.object({ title: t.string(), pages: t.u32() }, { name: 'Book' });
    type Book = Infer<typeof Book>;
    const BookContract = service({
      createBook: method([Book], Book, { status: 201 }),
      getBook: method([t.u64()], Book),
      countBooks: method([], t.u32(), { verb: 'POST' }),
    });
    const READER = contextKey<{ name: string; admin: boolean }>('reader');

    it("call.get(key) has the key's type; call.set takes only that type", () => {
      const typed = (call: Call) => {
        const reader: { name: string; admin: boolean } = call.get(READER);
        const name: string = call.get(READER).name;
        // @ts-expect-error the key holds an object, not a number
        const wrong: number = call.get(READER);
        // @ts-expect-error the key's value has no such member
        call.get(READER).email;
        call.set(READER, { name: 'ann', admin: false });
        // @ts-expect-error the value must be of the key's type
        call.set(READER, 'ann');
        const known: boolean = call.has(READER);
        return [reader, name, wrong, known];
      };
      expect(typed).to.be.a('function');
      expect(READER).to.be.instanceOf(ContextKey);
      const key: ContextKey<{ name: string; admin: boolean }> = READER;
      // @ts-expect-error a key of one type is not a key of another
      const other: ContextKey<number> = READER;
      expect([key, other]).to.have.length(2);
    });

    it('accepts methods taking their declared parameters and then the call', () => {
      class Books {
        createBook(book: Book, call: Call): Book {
          call.status(201);
          return book;
        }
        async getBook(id: bigint, call: Call): Promise<Book> {
          return { title: `${call.method} ${id}`, pages: 1 };
        }
        countBooks(call: Call): number {
          return call.args.length;
        }
      }
      expect(meta(Books, BookContract)).to.equal(BookContract);
    });

    it('accepts methods that leave the call out', () => {
      class Books {
        createBook(book: Book): Book {
          return book;
        }
        getBook(_id: bigint): Book {
          return { title: '', pages: 0 };
        }
        countBooks(): number {
          return 0;
        }
      }
      expect(meta(Books, BookContract)).to.equal(BookContract);
    });

    it('rejects a declared parameter of the wrong type before the call', () => {
      class Books {
        createBook(book: Book, _call: Call): Book {
          return book;
        }
        getBook(_id: string, _call: Call): Book {
          return { title: '', pages: 0 };
        }
        countBooks(): number {
          return 0;
        }
      }
      // @ts-expect-error getBook takes a bigint (t.u64), not a string
      meta(Books, BookContract);
    });

    it('rejects a second parameter that is not the call', () => {
      class Books {
        createBook(book: Book, _extra: string): Book {
          return book;
        }
        getBook(_id: bigint): Book {
          return { title: '', pages: 0 };
        }
        countBooks(): number {
          return 0;
        }
      }
      // @ts-expect-error createBook's second parameter is the Call, not a string
      meta(Books, BookContract);
    });

    it('rejects the call in place of a declared parameter', () => {
      class Books {
        createBook(book: Book): Book {
          return book;
        }
        getBook(_call: Call): Book {
          return { title: '', pages: 0 };
        }
        countBooks(): number {
          return 0;
        }
      }
      // @ts-expect-error getBook's first parameter is the bigint id
      meta(Books, BookContract);
    });

    it('rejects a parameter beyond the call', () => {
      class Books {
        createBook(book: Book, _call: Call, _more: number): Book {
          return book;
        }
        getBook(_id: bigint): Book {
          return { title: '', pages: 0 };
        }
        countBooks(): number {
          return 0;
        }
      }
      // @ts-expect-error createBook takes (book, call), nothing more
      meta(Books, BookContract);
    });

    it('types the call in an Implementation', () => {
      const impl: Implementation<typeof BookContract.methods> = {
        createBook: (book, call) => {
          call.header('location', `/books/${book.title}`);
          return book;
        },
        getBook: (id) => ({ title: String(id), pages: 1 }),
        countBooks: (call) => call.get(contextKey<number>('count')),
      };
      expect(Object.keys(impl)).to.have.length(3);
    });

    it('types security and status options', () => {
      const secured = service({ ping: method([], t.string(), { security: [] }) }, { security: ['bearer'] });
      const names: readonly string[] = secured.security;
      const declared: readonly string[] | undefined = secured.methods.ping.security;
      expect(names).to.deep.equal(['bearer']);
      expect(declared).to.deep.equal([]);
      expect(service({}).security).to.deep.equal([]);
      expect(secured.methods.ping.status).to.equal(undefined);
      // @ts-expect-error security is a list of scheme names
      expect(() => service({}, { security: 'bearer' })).to.throw(
        TypeError,
        /security must be an array of scheme names/,
      );
      // @ts-expect-error scheme names are strings
      expect(() => service({}, { security: [1] })).to.throw(TypeError, /security must be an array/);
      // @ts-expect-error a method's security is a list of scheme names
      expect(() => method([], t.string(), { security: 'bearer' })).to.throw(
        TypeError,
        /method\(\): security must be an array/,
      );
      expect(() => method([], t.string(), { security: [''] })).to.throw(TypeError, /security must be an array/);
      // @ts-expect-error a status is a number
      expect(() => method([], t.string(), { status: '201' })).to.throw(TypeError, /status must be a 2xx/);
    });
  });

  describe('binding', () => {
    it('binds the contract to the class and its subclasses', () => {
      class Base {
        ping() {
          return 'pong';
        }
      }
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
      class Orphan {
        getThing() {
          return 1;
        }
      }
      expect(() => new Registry().on(new Orphan())).to.throw(TypeError, /Orphan has no contract.*meta\(Orphan/);
    });

    it('a listed method the instance lacks is a TypeError naming both', () => {
      class Partial {
        a() {
          return 'a';
        }
      }
      meta(Partial, service({ a: method([], t.string()) }));
      const broken = new Partial();
      (broken as unknown as Record<string, unknown>).a = undefined;
      expect(() => new Registry().on(broken)).to.throw(
        TypeError,
        /Partial lists 'a' in its contract but has no such method/,
      );
    });

    it('two services claiming the same verb and path is an error, and nothing of the second is registered', () => {
      class One {
        getStatus() {
          return 'one';
        }
        other() {
          return 1;
        }
      }
      class Two {
        zzz() {
          return 2;
        }
        getStatus() {
          return 'two';
        }
      }
      meta(One, service({ getStatus: method([], t.string()), other: method([], t.u8()) }));
      meta(Two, service({ zzz: method([], t.u8()), getStatus: method([], t.string()) }));
      const registry = new Registry().on(new One());
      expect(() => registry.on(new Two())).to.throw(
        Error,
        'Registry.on(): Two.getStatus exposes GET /getStatus, already exposed by One.getStatus',
      );
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/getStatus', '/other']);
    });

    it('the same path under two verbs is allowed', () => {
      class A {
        getX() {
          return 'a';
        }
      }
      class B {
        getX() {
          return 'b';
        }
      }
      meta(A, service({ getX: method([], t.string()) }));
      meta(B, service({ getX: method([], t.string(), { verb: 'POST' }) }));
      const registry = new Registry().on(new A()).on(new B());
      expect([...registry.endpoints.routes.get('/getX')!.keys()]).to.deep.equal(['GET', 'POST']);
    });

    it('exposes listed methods only', () => {
      class Svc {
        shown() {
          return 's';
        }
        hidden() {
          return 'h';
        }
      }
      meta(Svc, service({ shown: method([], t.string()) }));
      const registry = new Registry().on(new Svc());
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/shown']);
    });
  });
});
