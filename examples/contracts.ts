// The services' contracts, apart from their implementations: the server binds them to its classes
// with meta(), the browser page builds its client from them without bundling any server code.
//
// The two styles side by side:
// - UserApi is in the specification's style: each method at `{prefix}/{method}`, the verb from its
//   name, its arguments in the body (`POST /api/getUserById` with the body `5`).
// - BookApi is a resource: named parameters and routes, as a Fastify or Hono user writes them
//   (`GET /api/books/3`, `GET /api/books/search?query=pearls&limit=5`, `PUT /api/books/3`).
//
// Every method needs a bearer token (the registry's `bearer` scheme, examples/auth.ts) except the
// three that read books and the stream of the library's activity: the catalogue is public.
import { method, service, t } from '../index.ts';
import {
  Book,
  BookEvent,
  BookEventsRequest,
  BookSearchRequest,
  BookSearchResponse,
  BookUpdate,
  ImportReport,
  User,
} from './records.ts';

export const UserApi = service(
  {
    getAllUsers: method([], t.array(User)), // GET /getAllUsers
    getUserById: method([t.u64()], User), // POST /getUserById, body: 5
    createUser: method([User], User), // POST /createUser, body: a User
    deleteUser: method([t.u64()], t.void()), // DELETE /deleteUser, body: 5; answers 204
  },
  { security: ['bearer'] },
);

export const BookApi = service(
  {
    listBooks: method([], t.array(Book), { route: 'GET /books', security: [] }),
    // The query string is spread over a BookSearchRequest: ?query=pearls&limit=5&offset=0. A static
    // segment wins over a parameter: /books/search is this route, not getBook with the id 'search'.
    searchBooks: method({ search: BookSearchRequest }, BookSearchResponse, {
      route: 'GET /books/search',
      security: [],
    }),
    getBook: method({ id: t.i32() }, Book, { route: 'GET /books/:id', security: [] }),
    createBook: method({ book: Book }, Book, { route: 'POST /books', status: 201 }), // body: { book }; 201 + Location
    updateBook: method({ id: t.i32(), update: BookUpdate }, Book, { route: 'PUT /books/:id' }), // body: { update }
    deleteBook: method({ id: t.i32() }, t.void(), { route: 'DELETE /books/:id' }), // 204
    // A request stream (`t.stream`): the body is a sequence of books (JSON Lines, a CBOR or a MessagePack
    // sequence), read book by book as the method takes them, whatever its length.
    importBooks: method({ books: t.stream(Book) }, ImportReport, { route: 'POST /books/import' }),
  },
  { security: ['bearer'] },
);

// The library's activity as a stream (`t.stream`): `GET /books/events?count=5` answers event by event,
// in JSON Lines, Server-Sent Events, a CBOR or a MessagePack sequence, as `Accept` asks. Public, so
// that a browser's EventSource (which cannot send an Authorization header) can open it.
export const BookEventApi = service({
  listBookEvents: method({ watch: BookEventsRequest }, t.stream(BookEvent), {
    route: 'GET /books/events',
    security: [],
  }),
});
