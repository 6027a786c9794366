import { HttpError, InvalidArgument, meta, type Call } from '../index.ts';
import { requireWriter } from './auth.ts';
import { BookApi, BookEventApi, UserApi } from './contracts.ts';
import type {
  Book,
  BookEvent,
  BookEventsRequest,
  BookSearchRequest,
  BookSearchResponse,
  BookUpdate,
  ImportReport,
  User,
} from './records.ts';

export { BookApi, BookEventApi, UserApi };

/** The specification's user service, in memory, at `{prefix}/{method}` (see UserApi in contracts.ts). */
export class UserService {
  readonly #users = new Map<bigint, User>([
    [1n, { id: 1n, name: 'Ada', weight: 61.5 }],
    [2n, { id: 2n, name: 'Linus', weight: 80.2 }],
  ]);
  #nextId = 3n;

  getAllUsers(): User[] {
    return [...this.#users.values()];
  }

  getUserById(id: bigint): User {
    const user = this.#users.get(id);
    if (user === undefined) throw new HttpError(404, `no user with id ${id}`);
    return user;
  }

  /** Stores `user`; id 0 asks for a fresh id. */
  async createUser(user: User, call: Call): Promise<User> {
    requireWriter(call);
    if (user.name.trim() === '') throw new InvalidArgument('name must not be empty');
    const stored = { ...user, id: user.id === 0n ? this.#nextId++ : user.id };
    this.#users.set(stored.id, stored);
    return stored;
  }

  deleteUser(id: bigint, call: Call): void {
    requireWriter(call);
    if (!this.#users.delete(id)) throw new HttpError(404, `no user with id ${id}`);
  }
}

meta(UserService, UserApi);

/** The books, as a resource: `/api/books` and `/api/books/:id` (see BookApi in contracts.ts). */
export class BookService {
  readonly #books = new Map<number, Book>([
    [
      1,
      {
        id: 1,
        title: 'Structure and Interpretation of Computer Programs',
        author: 'Abelson, Sussman',
        isbn: '0262510871',
        year: 1985,
      },
    ],
    [2, { id: 2, title: 'The C Programming Language', author: 'Kernighan, Ritchie', isbn: '0131103628', year: 1978 }],
    [3, { id: 3, title: 'Programming Pearls', author: 'Bentley', isbn: '0201657880', year: 1986 }],
  ]);

  /** Told of every creation, update and deletion (see {@link BookService.onChange}). */
  readonly #listeners = new Set<(event: BookEvent) => void>();

  /** Calls `listener` after each change of the catalogue; returns what stops it. */
  onChange(listener: (event: BookEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(bookId: number, text: string): void {
    const event = { at: new Date(), bookId, text };
    for (const listener of this.#listeners) listener(event);
  }

  listBooks(): Book[] {
    return [...this.#books.values()];
  }

  /** `GET /books/search?query=pearls&limit=5`: the query string's keys are the members of `search`. */
  searchBooks({ search }: { search: BookSearchRequest }): BookSearchResponse {
    if (search.limit < 0 || search.offset < 0) throw new InvalidArgument('limit and offset must not be negative');
    const q = search.query.toLowerCase();
    const hits = [...this.#books.values()].filter((b) => `${b.title} ${b.author}`.toLowerCase().includes(q));
    const books = hits.slice(search.offset, search.offset + search.limit);
    return { books, total_count: hits.length, has_more: search.offset + books.length < hits.length };
  }

  /** `GET /books/3`: `id` comes from the path, read as an i32 (`/books/x` is a 400 at `/id`). */
  getBook({ id }: { id: number }): Book {
    const book = this.#books.get(id);
    if (book === undefined) throw new HttpError(404, `no book with id ${id}`);
    return book;
  }

  /** `POST /books`, the body `{ book }`: answered 201 (the contract's status) with `Location: {prefix}/books/<id>`. */
  createBook({ book }: { book: Book }, call: Call): Book {
    requireWriter(call);
    if (this.#books.has(book.id)) throw new HttpError(409, `a book with id ${book.id} exists`);
    this.#books.set(book.id, book);
    // Below the prefix the registry is mounted at, wherever that is (`/api`: `/api/books/4`).
    call.header('location', `${call.prefix}/books/${book.id}`);
    this.#changed(book.id, `added: ${book.title}`);
    return book;
  }

  /** `PUT /books/3`, the body `{ update }`: the named parameters arrive as one object, `{ id, update }`. */
  updateBook({ id, update }: { id: number; update: BookUpdate }, call: Call): Book {
    requireWriter(call);
    const updated = { ...this.getBook({ id }), title: update.title, author: update.author };
    this.#books.set(id, updated);
    this.#changed(id, `updated: ${updated.title}`);
    return updated;
  }

  /**
   * `POST /books/import`, the body a sequence of books: each is read as the loop takes it (a bad one
   * is a 400 at its index, `/2/year`, with the books before it kept); an id already taken is skipped.
   */
  async importBooks({ books }: { books: AsyncIterable<Book> }, call: Call): Promise<ImportReport> {
    requireWriter(call);
    const report: ImportReport = { imported: 0, skipped: [] };
    for await (const book of books) {
      if (this.#books.has(book.id)) {
        report.skipped.push(book.id);
        continue;
      }
      this.#books.set(book.id, book);
      report.imported++;
      this.#changed(book.id, `imported: ${book.title}`);
    }
    return report;
  }

  /** `DELETE /books/3`: answered 204. */
  deleteBook({ id }: { id: number }, call: Call): void {
    requireWriter(call);
    const book = this.getBook({ id });
    this.#books.delete(id);
    this.#changed(id, `removed: ${book.title}`);
  }
}

meta(BookService, BookApi);

/** How often the ticker reports a loan or a return when the catalogue does not change. */
export const TICK_MS = 200;
/** The most events a stream asks for: a bigger `count` is a 400 before the stream begins. */
export const MAX_EVENTS = 10_000;
/** The changes kept for a reader that is behind; more are dropped (the catalogue is what counts). */
const MAX_WAITING = 64;

/**
 * The library's activity, live (`GET /api/books/events`, see BookEventApi in contracts.ts): each
 * addition, update and removal of a book as it happens and, when nothing changes for
 * {@link TICK_MS}, a loan or a return going round the catalogue in id order (every book borrowed,
 * then every book returned, ...). Ends cleanly after `count` events, with a 503 after `failAfter`
 * when asked, and at once when the client goes away.
 */
export class BookEventService {
  constructor(readonly books: BookService) {}

  async *listBookEvents({ watch }: { watch: BookEventsRequest }, call: Call): AsyncGenerator<BookEvent> {
    if (watch.count > MAX_EVENTS) throw new InvalidArgument(`count must be at most ${MAX_EVENTS}`);
    const waiting: BookEvent[] = [];
    let wake: (() => void) | undefined;
    const stopListening = this.books.onChange((event) => {
      if (waiting.length < MAX_WAITING) waiting.push(event);
      wake?.();
    });
    // A generator suspended at `await` gets its `return()` only after that await: the abort wakes it.
    const onAbort = () => wake?.();
    call.signal.addEventListener('abort', onAbort);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ticks = 0;
    try {
      for (let sent = 0; sent < watch.count; sent++) {
        if (waiting.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, TICK_MS);
          });
          clearTimeout(timer);
          wake = undefined;
        }
        if (call.signal.aborted) return;
        if (sent === watch.failAfter && sent > 0) {
          throw new HttpError(
            503,
            `the ticker stopped after ${sent} event${sent === 1 ? '' : 's'}, as failAfter=${sent} asked`,
          );
        }
        const event = waiting.shift() ?? this.#tick(ticks++);
        if (event === undefined)
          sent--; // an empty catalogue: nothing to tell but changes
        else yield event;
      }
    } finally {
      stopListening();
      call.signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    }
  }

  /** The `n`th loan or return: round `r` of the catalogue borrows every book when even, returns them when odd. */
  #tick(n: number): BookEvent | undefined {
    const books = this.books.listBooks().sort((a, b) => a.id - b.id);
    if (books.length === 0) return undefined;
    const book = books[n % books.length]!;
    const round = Math.floor(n / books.length);
    return { at: new Date(), bookId: book.id, text: `${round % 2 === 0 ? 'borrowed' : 'returned'}: ${book.title}` };
  }
}

meta(BookEventService, BookEventApi);
