// The services' contracts, apart from their implementations: the server binds them to its classes
// with meta(), the browser page builds its client from them without bundling any server code.
// Every method needs a bearer token (the registry's `bearer` scheme, examples/auth.ts) except
// listBooks: the catalogue is public.
import { method, service, t } from '../index.ts';
import { Book, BookSearchRequest, BookSearchResponse, BookUpdate, User } from './records.ts';

export const UserApi = service({
  getAllUsers: method([], t.array(User)),           // GET
  getUserById: method([t.u64()], User),             // POST, body: 5
  createUser: method([User], User),                 // POST, body: a User
  deleteUser: method([t.u64()], t.void()),          // DELETE, 204
}, { security: ['bearer'] });

export const BookApi = service({
  listBooks: method([], t.array(Book), { security: [] }),               // GET, public
  createBook: method([Book], Book, { status: 201 }),                    // POST, 201 + Location
  updateBook: method([BookUpdate], Book),                               // PUT
  deleteBook: method([t.i32()], t.void()),                              // DELETE, 204
  searchBooks: method([BookSearchRequest], BookSearchResponse),         // POST
}, { security: ['bearer'] });
