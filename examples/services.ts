import { HttpError, InvalidArgument, meta, type Call } from '../index.ts';
import { requireWriter } from './auth.ts';
import { BookApi, UserApi } from './contracts.ts';
import type { Book, BookSearchRequest, BookSearchResponse, BookUpdate, User } from './records.ts';

export { BookApi, UserApi };

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
  /** @param booksUrl where `getBook` serves a book: `${booksUrl}/<id>`, createBook's `Location`. */
  constructor(readonly booksUrl = '/api/books') {}

  readonly #books = new Map<number, Book>([
    [1, { id: 1, title: 'Structure and Interpretation of Computer Programs', author: 'Abelson, Sussman', isbn: '0262510871', year: 1985 }],
    [2, { id: 2, title: 'The C Programming Language', author: 'Kernighan, Ritchie', isbn: '0131103628', year: 1978 }],
    [3, { id: 3, title: 'Programming Pearls', author: 'Bentley', isbn: '0201657880', year: 1986 }],
  ]);

  listBooks(): Book[] {
    return [...this.#books.values()];
  }

  /** `GET /books/search?query=pearls&limit=5`: the query string's keys are the members of `search`. */
  searchBooks(search: BookSearchRequest): BookSearchResponse {
    if (search.limit < 0 || search.offset < 0) throw new InvalidArgument('limit and offset must not be negative');
    const q = search.query.toLowerCase();
    const hits = [...this.#books.values()].filter((b) => `${b.title} ${b.author}`.toLowerCase().includes(q));
    const books = hits.slice(search.offset, search.offset + search.limit);
    return { books, total_count: hits.length, has_more: search.offset + books.length < hits.length };
  }

  /** `GET /books/3`: `id` comes from the path, read as an i32 (`/books/x` is a 400 at `/id`). */
  getBook(id: number): Book {
    const book = this.#books.get(id);
    if (book === undefined) throw new HttpError(404, `no book with id ${id}`);
    return book;
  }

  /** `POST /books`, the body a Book: answered 201 (the contract's status) with `Location: /api/books/<id>`. */
  createBook(book: Book, call: Call): Book {
    requireWriter(call);
    if (this.#books.has(book.id)) throw new HttpError(409, `a book with id ${book.id} exists`);
    this.#books.set(book.id, book);
    call.header('location', `${this.booksUrl}/${book.id}`);
    return book;
  }

  /** `PUT /books/3`, the body a BookUpdate: the arguments arrive in declared order, `id` then `update`. */
  updateBook(id: number, update: BookUpdate, call: Call): Book {
    requireWriter(call);
    const updated = { ...this.getBook(id), title: update.title, author: update.author };
    this.#books.set(id, updated);
    return updated;
  }

  /** `DELETE /books/3`: answered 204. */
  deleteBook(id: number, call: Call): void {
    requireWriter(call);
    if (!this.#books.delete(id)) throw new HttpError(404, `no book with id ${id}`);
  }
}

meta(BookService, BookApi);
