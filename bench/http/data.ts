// What the three benchmark servers serve: the specification's records, the same values for every server.
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { t, type Type } from '../../index.ts';
import { Book, User } from '../../examples/records.ts';

export { Book, User };

/** Ten users; the weights are exact in float32, so every server writes the same JSON. */
export const USERS: User[] = Array.from({ length: 10 }, (_, i) => ({
  id: BigInt(i + 1),
  name: ['Ada', 'Linus', 'Grace', 'Barbara', 'Edsger', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis'][i]!,
  weight: 50 + i * 2.25,
}));

/** The users as the Fastify and node:http servers hold them: ids as plain numbers. */
export const PLAIN_USERS = USERS.map((u) => ({ id: Number(u.id), name: u.name, weight: u.weight }));

/** The body of the POST object endpoint. */
export const NEW_BOOK: Book = {
  id: 42,
  title: 'The Left Hand of Darkness',
  author: 'Ursula K. Le Guin',
  isbn: '978-0-441-47812-5',
  year: 1969,
};

/** The body of the POST scalar endpoint. */
export const USER_ID = 7n;

export const PREFIX = '/api';
/** Where the protocols bench serves the same service as JSON-RPC 2.0. */
export const RPC_PREFIX = '/rpc';

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

// ---- A stream: the users as Server-Sent Events ------------------------------------------------------

/** How many users the stream answers: the ten, ten times over. */
export const FEED_LENGTH = 100;
/** Where lacquer and Hono serve the stream (on Bun). */
export const FEED_PATH = `${PREFIX}/listUserFeed`;

// ---- The authenticated case: bearer auth and one interceptor ---------------------------------------

/** Where lacquer and Fastify serve `getUserById` behind a bearer token; node:http does not. */
export const AUTH_PREFIX = '/authed';

/** Who a token stands for. */
export interface Caller {
  readonly id: string;
  readonly name: string;
}

/** The tokens both servers accept, each in its own `Map`; the load generator sends the first. */
export const TOKENS: readonly (readonly [token: string, caller: Caller])[] = [
  ['bench-3f9c2a7d1e6b4c05a8d2', { id: 'caller-1', name: 'load generator' }],
  ['bench-8b1e5d4c3a2f9e07b6c1', { id: 'caller-2', name: 'spec' }],
  ['bench-0d7a6c5b4e3f2a19c8b7', { id: 'caller-3', name: 'idle' }],
];

/** The `WWW-Authenticate` of a 401 without a token, and with a malformed or unknown one (RFC 6750). */
export const CHALLENGE = 'Bearer realm="api"';
export const INVALID_TOKEN_CHALLENGE = 'Bearer realm="api", error="invalid_token"';

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
