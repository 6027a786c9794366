// The services the JSON-RPC specs call: a small library with named and positional parameters,
// 64-bit ids, bytes and timestamps, methods that fail in each way, and one behind bearer auth.
import {
  HttpError,
  InvalidArgument,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type ErrorContext,
  type Infer,
  type ResponseReport,
} from '../../../index.ts';

export const Book = t.object(
  {
    id: t.u64(),
    title: t.string({ minLength: 1 }),
    cover: t.bytes(),
    added: t.timestamp(),
  },
  { name: 'Book' },
);
export type Book = Infer<typeof Book>;

export const BookPatch = t.object({ title: t.string({ minLength: 1 }) }, { name: 'BookPatch' });

export const TOKEN = 'reader-token';
export const FORBIDDEN = 'forbidden-token';
export const READER = contextKey<string>('reader');

export const BOOK: Book = {
  id: 2n ** 64n - 1n,
  title: 'Dune',
  cover: new Uint8Array([0, 1, 254, 255]),
  added: new Date('2024-02-29T12:00:00.000Z'),
};

export class Library {
  readonly calls: string[] = [];
  getBook({ id }: { id: bigint }): Book {
    this.calls.push(`getBook ${id}`);
    if (id === 0n) throw new HttpError(404, `no book ${id}`);
    return { ...BOOK, id };
  }
  renameBook({ id, patch }: { id: bigint; patch: { title: string } }): Book {
    return { ...BOOK, id, title: patch.title };
  }
  addBook(book: Book): Book {
    return book;
  }
  pair(a: string, b: number): string {
    return `${a}:${b}`;
  }
  touch(): void {
    this.calls.push('touch');
  }
  crash(): string {
    throw new Error('the disk is on fire');
  }
  refuse(n: number): number {
    throw new InvalidArgument(`${n} is not a good number`);
  }
  /** Returns what its descriptor cannot write. */
  broken(): number {
    return 'not a number' as unknown as number;
  }
  /** The most calls of `later` under way at once. */
  mostAtOnce = 0;
  #atOnce = 0;
  async later(ms: number): Promise<number> {
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.#atOnce);
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      this.#atOnce--;
    }
    return ms;
  }
  whoAmI(call: Call): string {
    return call.get(READER);
  }
  /** How many calls of `held` have started. */
  heldStarted = 0;
  /** Told of each call of `held` as it starts. */
  onHeld: ((started: number) => void) | undefined;
  /** Waits until its call is given up on (a timeout, the client gone, a shutdown). */
  async held(call: Call): Promise<void> {
    this.heldStarted++;
    this.onHeld?.(this.heldStarted);
    if (!call.signal.aborted) await new Promise((r) => call.signal.addEventListener('abort', r, { once: true }));
  }
}

export const LibraryApi = meta(
  Library,
  service({
    getBook: method({ id: t.u64() }, Book, { description: 'One book by its id.' }),
    renameBook: method({ id: t.u64(), patch: BookPatch }, Book),
    addBook: method([Book], Book),
    pair: method([t.string(), t.u8()], t.string()),
    touch: method([], t.void()),
    crash: method([], t.string()),
    refuse: method([t.i32()], t.i32()),
    broken: method([], t.i32()),
    later: method([t.u32()], t.u32()),
    whoAmI: method([], t.string(), { security: ['bearer'] }),
    held: method([], t.void()),
  }),
);

/** What a registry of the library was told: failures by `onError`, answers by `onResponse`. */
export function observers() {
  const errors: { error: unknown; context: ErrorContext }[] = [];
  const responses: ResponseReport[] = [];
  return {
    errors,
    responses,
    options: {
      onError: (error: unknown, context: ErrorContext) => void errors.push({ error, context }),
      onResponse: (report: ResponseReport) => void responses.push(report),
      security: {
        bearer: bearerAuth({
          key: READER,
          verify: (token: string) => {
            if (token === FORBIDDEN) throw new HttpError(403, 'this reader may not');
            return token === TOKEN ? 'ada' : undefined;
          },
        }),
      },
    },
  };
}
