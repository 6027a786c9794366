// A notes service in the resource style, for the route specs: named parameters, routes sharing a
// path with different verbs, a literal segment beside a parameter, a search spread over the query,
// a secured route, and one method left on the specification's `{prefix}/{method}` path.
import {
  HttpError,
  Registry,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type Infer,
  type Interceptor,
  type RegistryOptions,
  type ResponseReport,
} from '../../../index.ts';

export const Note = t.object(
  { id: t.u64(), title: t.string({ minLength: 1 }), tags: t.array(t.string()) },
  { name: 'Note' },
);
export type Note = Infer<typeof Note>;
export const NotePatch = t.object({ title: t.string({ minLength: 1 }) }, { name: 'NotePatch' });
export const Search = t.object(
  { query: t.string(), limit: t.u32({ maximum: 50 }).default(10), tag: t.optional(t.string()) },
  { name: 'Search' },
);
export const Order = t.enum(['newest', 'oldest']);

export const NotesApi = service({
  listNotes: method({ order: Order, tags: t.array(t.string()).default([]) }, t.array(Note), { route: 'GET /notes' }),
  createNote: method({ note: Note }, Note, { route: 'POST /notes', status: 201 }),
  getNote: method({ id: t.u64() }, Note, { route: 'GET /notes/:id' }),
  updateNote: method({ id: t.u64(), patch: NotePatch }, Note, { route: 'PUT /notes/:id' }),
  renameNote: method({ id: t.u64(), title: t.string(), tags: t.array(t.string()) }, Note, {
    route: 'PATCH /notes/:id',
  }),
  deleteNote: method({ id: t.u64() }, t.void(), { route: 'DELETE /notes/:id' }),
  searchNotes: method({ q: Search }, t.array(Note), { route: 'GET /notes/search' }),
  noteAt: method({ day: t.timestamp(), pinned: t.bool(), offset: t.i64() }, t.string(), {
    route: 'GET /notes/at/:day/:pinned/:offset',
  }),
  secretNote: method({ id: t.u64() }, Note, { route: 'GET /notes/:id/secret', security: ['bearer'] }),
  countNotes: method([t.string()], t.u32()),
});

export const CALLER = contextKey<string>('caller');
export const TOKEN = 'notes-token';

export class Notes {
  readonly notes = new Map<bigint, Note>([
    [1n, { id: 1n, title: 'one', tags: ['a'] }],
    [2n ** 64n - 1n, { id: 2n ** 64n - 1n, title: 'max', tags: [] }],
  ]);
  listNotes({ order, tags }: { order: 'newest' | 'oldest'; tags: string[] }): Note[] {
    const all = [...this.notes.values()].filter((n) => tags.every((t) => n.tags.includes(t)));
    return order === 'oldest' ? all : all.reverse();
  }
  createNote({ note }: { note: Note }, call: Call): Note {
    this.notes.set(note.id, note);
    call.header('location', `/notes/${note.id}`);
    return note;
  }
  getNote({ id }: { id: bigint }): Note {
    const note = this.notes.get(id);
    if (note === undefined) throw new HttpError(404, `no note ${id}`);
    return note;
  }
  updateNote({ id, patch }: { id: bigint; patch: { title: string } }): Note {
    return { ...this.getNote({ id }), title: patch.title };
  }
  renameNote({ id, title, tags }: { id: bigint; title: string; tags: string[] }): Note {
    return { ...this.getNote({ id }), title, tags };
  }
  deleteNote({ id }: { id: bigint }): void {
    this.notes.delete(id);
  }
  searchNotes({ q }: { q: Infer<typeof Search> }): Note[] {
    return [{ id: BigInt(q.limit), title: `${q.query}|${q.tag ?? '-'}`, tags: [] }];
  }
  noteAt({ day, pinned, offset }: { day: Date; pinned: boolean; offset: bigint }): string {
    return `${day.toISOString()} ${pinned} ${offset}`;
  }
  secretNote({ id }: { id: bigint }, call: Call): Note {
    return { id, title: `for ${call.get(CALLER)}`, tags: [] };
  }
  countNotes(prefix: string): number {
    return [...this.notes.values()].filter((n) => n.title.startsWith(prefix)).length;
  }
}
meta(Notes, NotesApi);

/** What the interceptor saw: method names with their arguments. */
export interface Seen {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** A registry serving a fresh {@link Notes}, recording calls through an interceptor and `onResponse`. */
export function notesRegistry(options: RegistryOptions = {}): {
  registry: Registry;
  seen: Seen[];
  reports: ResponseReport[];
} {
  const seen: Seen[] = [];
  const reports: ResponseReport[] = [];
  const record: Interceptor = (call, next) => {
    seen.push({ method: call.method, args: call.args });
    return next();
  };
  const registry = new Registry({
    onError: () => {},
    onResponse: (report) => reports.push(report),
    interceptors: [record],
    security: { bearer: bearerAuth({ verify: (token) => (token === TOKEN ? 'reader' : undefined), key: CALLER }) },
    ...options,
  }).on(new Notes());
  return { registry, seen, reports };
}
