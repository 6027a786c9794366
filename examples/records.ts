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
