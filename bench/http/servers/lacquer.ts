// lacquer: HttpServer + Registry with a benchmark service over the specification's records, and the
// same getUserById behind bearer auth and one interceptor in a second registry.
import {
  bearerAuth,
  contextKey,
  HttpError,
  InvalidArgument,
  JSONRPC,
  Registry,
  meta,
  method,
  service,
  t,
  type Interceptor,
  type RegistryOptions,
} from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { AUTH_PREFIX, Book, FEED_LENGTH, PREFIX, RPC_PREFIX, TOKENS, USERS, User, type Caller } from '../data.ts';
import type { RunningServer } from './types.ts';

/**
 * The endpoints: `GET /listUsers`, `POST /createBook`, `POST /getUserById` (by the verb rules), and
 * the same lookup as a resource route, `GET /users/:id`.
 */
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

  userById({ id }: { id: bigint }): User {
    return this.getUserById(id);
  }

  /** The users, {@link FEED_LENGTH} in all, as a stream (Server-Sent Events for the Bun bench). */
  async *listUserFeed(): AsyncIterable<User> {
    for (let i = 0; i < FEED_LENGTH; i++) yield USERS[i % USERS.length]!;
  }
}

meta(
  BenchService,
  service({
    listUsers: method([], t.array(User)),
    createBook: method([Book], Book),
    getUserById: method([t.u64()], User),
    userById: method({ id: t.u64() }, User, { route: 'GET /users/:id' }),
    listUserFeed: method([], t.stream(User)),
  }),
);

/** `POST /getUserById` as in {@link BenchService}, for callers with a bearer token. */
export class AuthedBenchService {
  readonly #byId = new Map(USERS.map((u) => [u.id, u]));

  getUserById(id: bigint): User {
    const user = this.#byId.get(id);
    if (user === undefined) throw new HttpError(404, `no user with id ${id}`);
    return user;
  }
}

meta(AuthedBenchService, service({ getUserById: method([t.u64()], User) }, { security: ['bearer'] }));

const CALLER = contextKey<Caller>('caller');

/** The registry of the auth case: the token looked up in a Map, then the calls of each caller counted. */
function authedRegistry(extra: RegistryOptions): Registry {
  const tokens = new Map(TOKENS);
  const callsByCaller = new Map<string, number>();
  const countCalls: Interceptor = (call, next) => {
    const { id } = call.get(CALLER);
    callsByCaller.set(id, (callsByCaller.get(id) ?? 0) + 1);
    return next();
  };
  return new Registry({
    errorOnMissingKeys: true,
    security: { bearer: bearerAuth({ verify: (token) => tokens.get(token), key: CALLER }) },
    interceptors: [countCalls],
    ...extra,
  }).on(new AuthedBenchService());
}

/** Strict reading, as Fastify's body schemas (every key required, no unknown keys). */
export async function startLacquer(port = 0, extra: RegistryOptions = {}): Promise<RunningServer> {
  const registry = new Registry({ errorOnMissingKeys: true, ...extra }).on(new BenchService());
  const server = await new HttpServer()
    .mount(PREFIX, registry.endpoints)
    .mount(AUTH_PREFIX, authedRegistry(extra).endpoints)
    .bind(port)
    .start();
  return { port: server.port, close: () => server.stop() };
}

/** The benchmark service twice on one server: REST under {@link PREFIX}, JSON-RPC 2.0 at {@link RPC_PREFIX}. */
export async function startLacquerProtocols(port = 0): Promise<RunningServer> {
  const service = new BenchService();
  // The stream method is REST's alone.
  const options = { errorOnMissingKeys: true, onWarning: () => {} } as const;
  const server = await new HttpServer()
    .mount(PREFIX, new Registry(options).on(service).endpoints)
    .mount(RPC_PREFIX, new Registry(options, JSONRPC).on(service).endpoints)
    .bind(port)
    .start();
  return { port: server.port, close: () => server.stop() };
}

/**
 * The same server with a rate limit on every endpoint, one no request of the bench reaches
 * (the load generator is one client): what counting each call costs.
 */
export function startLacquerLimited(port = 0): Promise<RunningServer> {
  return startLacquer(port, { rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } });
}
