// lacquer: HttpServer + Registry with a benchmark service over the specification's records.
import { HttpError, InvalidArgument, Registry, meta, method, service, t } from '../../../core/index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { Book, PREFIX, USERS, User } from '../data.ts';
import type { RunningServer } from './types.ts';

/** The three endpoints: `GET /listUsers`, `POST /createBook`, `POST /getUserById` (by the verb rules). */
export class BenchService {
  readonly #byId = new Map(USERS.map((u) => [u.id, u]));

  listUsers(): User[] {
    return USERS;
  }

  /** Checks and returns the book; nothing is stored, so memory measures the server, not the app. */
  createBook(book: Book): Book {
    if (book.title === '') throw new InvalidArgument('title must not be empty');
    return book;
  }

  getUserById(id: bigint): User {
    const user = this.#byId.get(id);
    if (user === undefined) throw new HttpError(404, `no user with id ${id}`);
    return user;
  }
}

meta(BenchService, service({
  listUsers: method([], t.array(User)),
  createBook: method([Book], Book),
  getUserById: method([t.u64()], User),
}));

/** Strict reading, as Fastify's body schemas (every key required, no unknown keys). */
export async function startLacquer(port = 0): Promise<RunningServer> {
  const registry = new Registry({ errorOnMissingKeys: true }).on(new BenchService());
  const server = await new HttpServer().mount(PREFIX, registry.endpoints).bind(port).start();
  return { port: server.port, close: () => server.stop() };
}
