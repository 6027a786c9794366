// What the benchmark servers serve, as lacquer types it: the specification's records over the plain
// values of plain.ts, the same values for every server, and the endpoints with their request bodies.
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { t, type Type } from '../../index.ts';
import { Book, User } from '../../examples/records.ts';
import { AUTH_PREFIX, NEW_BOOK as PLAIN_BOOK, PLAIN_USER_ID, PLAIN_USERS, PREFIX, TOKENS } from './plain.ts';

export { Book, User };
export {
  AUTH_PREFIX,
  CHALLENGE,
  FEED_LENGTH,
  FEED_PATH,
  INVALID_TOKEN_CHALLENGE,
  PLAIN_USER_ID,
  PLAIN_USERS,
  PREFIX,
  RPC_PREFIX,
  TOKENS,
  type Caller,
} from './plain.ts';

/** The users of {@link PLAIN_USERS} as lacquer holds them: ids as `bigint`. */
export const USERS: User[] = PLAIN_USERS.map((u) => ({ id: BigInt(u.id), name: u.name, weight: u.weight }));

/** The body of the POST object endpoint. */
export const NEW_BOOK: Book = PLAIN_BOOK;

/** The body of the POST scalar endpoint. */
export const USER_ID = BigInt(PLAIN_USER_ID);

/** One of the endpoints the servers answer, with its request bodies and expected answer. */
export interface BenchEndpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Headers sent with every request besides `accept` and `content-type` (the bearer token). */
  readonly headers?: Readonly<Record<string, string>>;
  /** What the answer decodes to, as lacquer holds it. */
  readonly answerType: Type;
  readonly answer: unknown;
  readonly jsonBody: string | undefined;
  readonly msgpackBody: Uint8Array | undefined;
}

export const ENDPOINTS: readonly BenchEndpoint[] = [
  {
    name: 'GET list (10 Users)',
    method: 'GET',
    path: `${PREFIX}/listUsers`,
    answerType: t.array(User),
    answer: USERS,
    jsonBody: undefined,
    msgpackBody: undefined,
  },
  {
    name: 'POST object (create a Book)',
    method: 'POST',
    path: `${PREFIX}/createBook`,
    answerType: Book,
    answer: NEW_BOOK,
    jsonBody: json.encode(Book, NEW_BOOK),
    msgpackBody: msgpack.encode(Book, NEW_BOOK),
  },
  {
    name: 'POST scalar (getUserById)',
    method: 'POST',
    path: `${PREFIX}/getUserById`,
    answerType: User,
    answer: USERS[Number(USER_ID) - 1],
    jsonBody: json.encode(t.u64(), USER_ID),
    msgpackBody: msgpack.encode(t.u64(), USER_ID),
  },
  {
    name: 'GET routed (users/:id)',
    method: 'GET',
    path: `${PREFIX}/users/${USER_ID}`,
    answerType: User,
    answer: USERS[Number(USER_ID) - 1],
    jsonBody: undefined,
    msgpackBody: undefined,
  },
];

// ---- The authenticated case: bearer auth and one interceptor ---------------------------------------

/**
 * POST scalar again, under {@link AUTH_PREFIX}: each request carries `Authorization: Bearer <token>`,
 * the server looks the token up, and one interceptor (lacquer) or `preHandler` hook (Fastify)
 * counts the calls of each caller.
 */
export const AUTH_ENDPOINT: BenchEndpoint = {
  ...ENDPOINTS[2]!,
  name: 'bearer auth + interceptor (getUserById)',
  path: `${AUTH_PREFIX}/getUserById`,
  headers: { authorization: `Bearer ${TOKENS[0]![0]}` },
};
