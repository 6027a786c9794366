// A service using every descriptor kind, for the OpenAPI specs (documents, wire, generated types).
import {
  apiKeyAuth,
  basicAuth,
  bearerAuth,
  contextKey,
  HttpError,
  meta,
  method,
  Registry,
  service,
  t,
  type Infer,
  type RegistryOptions,
} from '../../../../index.ts';

export const Address = t.object({ street: t.string(), zip: t.optional(t.string()) }, { name: 'Address' });

export const Account = t.object(
  {
    id: t.u64(),
    balance: t.i64(),
    name: t.string(),
    score: t.f32(),
    ratio: t.f64(),
    small: t.i8(),
    port: t.u16(),
    count: t.u32(),
    active: t.bool(),
    avatar: t.bytes(),
    nick: t.optional(t.string()),
    manager: t.nullable(t.u64()),
    home: Address,
    tags: t.array(t.string()),
    limits: t.map(t.i32()),
    point: t.tuple([t.f64(), t.f64()]),
    kind: t.literal('account'),
    plan: t.enum(['free', 'pro', 2]),
    page: t.i32().default(1),
  },
  { name: 'Account' },
);
export type Account = Infer<typeof Account>;

export const Search = t.object(
  { query: t.string(), limit: t.i32().default(10), after: t.optional(t.u64()) },
  { name: 'Search' },
);
export const Blob = t.object({ data: t.bytes(), size: t.u32() }, { name: 'Blob' });

export const ZooApi = service(
  {
    listAccounts: method([], t.array(Account), { security: [] }),
    getAccount: method([t.u64()], Account),
    createAccount: method([Account], Account, { status: 201 }),
    updateAccount: method([Account], Account),
    deleteAccount: method([t.u64()], t.void()),
    searchAccounts: method([Search], t.object({ hits: t.array(Account), total: t.u32() }, { name: 'SearchResult' })),
    move: method([t.u64(), Address, t.optional(t.string())], Address),
    upload: method([Blob], t.u64(), { security: ['key'] }),
    touch: method([], t.void(), { verb: 'POST', status: 202 }),
  },
  { security: ['bearer', 'basic'] },
);

export const sampleAccount = (id: bigint): Account => ({
  id,
  balance: -5n,
  name: 'Ann',
  score: Math.fround(0.5),
  ratio: 0.25,
  small: -3,
  port: 8080,
  count: 7,
  active: true,
  avatar: new Uint8Array([1, 2, 250]),
  manager: null,
  home: { street: 'Elm' },
  tags: ['a'],
  limits: { daily: 5 },
  point: [1.5, -2],
  kind: 'account',
  plan: 'pro',
  page: 1,
});

export class ZooService {
  readonly #accounts = new Map<bigint, Account>([
    [1n, sampleAccount(1n)],
    [2n ** 64n - 1n, { ...sampleAccount(2n ** 64n - 1n), nick: 'max' }],
  ]);
  listAccounts(): Account[] {
    return [...this.#accounts.values()];
  }
  getAccount(id: bigint): Account {
    const found = this.#accounts.get(id);
    if (found === undefined) throw new HttpError(404, `no account ${id}`);
    return found;
  }
  createAccount(a: Account): Account {
    this.#accounts.set(a.id, a);
    return a;
  }
  updateAccount(a: Account): Account {
    return this.createAccount(a);
  }
  deleteAccount(id: bigint): void {
    this.#accounts.delete(id);
  }
  searchAccounts(s: Infer<typeof Search>) {
    const hits = [...this.#accounts.values()].filter((a) => a.name.includes(s.query)).slice(0, s.limit);
    return { hits, total: hits.length };
  }
  move(_id: bigint, to: Infer<typeof Address>, _note: string | undefined) {
    return to;
  }
  upload(blob: Infer<typeof Blob>): bigint {
    return BigInt(blob.data.length);
  }
  touch(): void {}
}
meta(ZooService, ZooApi);

export const ZOO_TOKEN = 'zoo-token';
export const ZOO_KEY = 'zoo-key';
const WHO = contextKey<string>('who');

/** The zoo behind bearer or basic auth (`upload`: an API key in `x-api-key`), `listAccounts` public. */
export function zooRegistry(options: RegistryOptions = {}): Registry {
  return new Registry({
    ...options,
    onError: () => {},
    security: {
      bearer: bearerAuth({ verify: (token) => (token === ZOO_TOKEN ? 'bearer' : undefined), key: WHO }),
      basic: basicAuth({
        verify: ({ username, password }) => (username === 'zoo' && password === 'pw' ? 'basic' : undefined),
        key: WHO,
      }),
      key: apiKeyAuth({ header: 'x-api-key', verify: (k) => (k === ZOO_KEY ? 'key' : undefined), key: WHO }),
    },
  }).on(new ZooService());
}

// ---- Routes and named parameters ----------------------------------------------------------------

export const Note = t.object(
  { id: t.u64(), title: t.string({ minLength: 1 }), tags: t.array(t.string()) },
  { name: 'Note' },
);
export const NotePatch = t.object(
  { title: t.optional(t.string({ minLength: 1 })), tags: t.optional(t.array(t.string())) },
  { name: 'NotePatch' },
);
/** Spread over the query of `GET /notes`: `?query=x&limit=5&tag=a&tag=b`. */
export const NoteSearch = t.object(
  {
    query: t.string(),
    limit: t.u32({ maximum: 100 }).default(10),
    tag: t.optional(t.array(t.string())),
    after: t.optional(t.timestamp()),
  },
  { name: 'NoteSearch' },
);

/** Notes as resources: routes sharing a path, a spread query object, named parameters on default paths. */
export const NotesApi = service(
  {
    getNote: method({ id: t.u64() }, Note, { route: 'GET /notes/:id' }),
    updateNote: method({ id: t.u64(), patch: NotePatch }, Note, { route: 'PUT /notes/:id' }),
    deleteNote: method({ id: t.u64() }, t.void(), { route: 'DELETE /notes/:id' }),
    searchNotes: method({ q: NoteSearch }, t.array(Note), { route: 'GET /notes' }),
    moveNote: method({ id: t.u64(), folder: t.string(), position: t.u32() }, Note, { route: 'POST /notes/:id/move' }),
    findNotes: method(
      {
        kind: t.enum(['draft', 'done', 3]),
        since: t.i64({ json: 'string' }),
        ids: t.optional(t.array(t.u64(), { maxItems: 3 })),
        exact: t.optional(t.bool()),
      },
      t.array(Note),
    ),
    tagNotes: method({ tag: t.string().describe('The tag to add.'), ids: t.array(t.u64(), { minItems: 1 }) }, t.u32(), {
      route: 'DELETE /tags/:tag',
    }),
  },
  { security: [] },
);

export class NotesService {
  #note = (id: bigint): Infer<typeof Note> => ({ id, title: 'Note', tags: [] });
  getNote({ id }: { id: bigint }) {
    return this.#note(id);
  }
  updateNote({ id }: { id: bigint }) {
    return this.#note(id);
  }
  deleteNote() {}
  searchNotes() {
    return [this.#note(1n)];
  }
  moveNote({ id }: { id: bigint }) {
    return this.#note(id);
  }
  findNotes() {
    return [];
  }
  tagNotes({ ids }: { tag: string; ids: bigint[] }) {
    return ids.length;
  }
}
meta(NotesService, NotesApi);

export const notesRegistry = (options: RegistryOptions = {}) =>
  new Registry({ onError: () => {}, ...options }).on(new NotesService());
