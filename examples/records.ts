import { t, type Infer } from '../index.ts';

/** The specification's records (section 2.4). */
export const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });
export type User = Infer<typeof User>;

export const Book = t.object(
  { id: t.i32(), title: t.string(), author: t.string(), isbn: t.string(), year: t.i32() },
  { name: 'Book' },
);
export type Book = Infer<typeof Book>;

/** What `PUT /books/:id` replaces: the id travels in the path. */
export const BookUpdate = t.object({ title: t.string(), author: t.string() }, { name: 'BookUpdate' });
export type BookUpdate = Infer<typeof BookUpdate>;

/** The query string of `GET /books/search?query=pearls&limit=5`: one key per member. */
export const BookSearchRequest = t.object(
  { query: t.string(), limit: t.i32().default(10), offset: t.i32().default(0) },
  { name: 'BookSearchRequest' },
);
export type BookSearchRequest = Infer<typeof BookSearchRequest>;

export const BookSearchResponse = t.object(
  { books: t.array(Book), total_count: t.i32(), has_more: t.bool() },
  { name: 'BookSearchResponse' },
);
export type BookSearchResponse = Infer<typeof BookSearchResponse>;

/** One event of the library's activity, as `GET /books/events` streams it. */
/** What `POST /api/books/import` answers: the books added, and those skipped (their id was taken). */
export const ImportReport = t.object({ imported: t.u32(), skipped: t.array(t.i32()) }, { name: 'ImportReport' });
export type ImportReport = Infer<typeof ImportReport>;

export const BookEvent = t.object({ at: t.timestamp(), bookId: t.i32(), text: t.string() }, { name: 'BookEvent' });
export type BookEvent = Infer<typeof BookEvent>;

/**
 * The query string of `GET /books/events?count=5`: how many events before the clean end, and, to
 * watch a stream fail, after how many it ends with an error instead (0: never).
 */
export const BookEventsRequest = t.object(
  { count: t.u32().default(5), failAfter: t.u32().default(0) },
  { name: 'BookEventsRequest' },
);
export type BookEventsRequest = Infer<typeof BookEventsRequest>;
