// What every benchmark server serves, as plain values: no import at all, so that a Fastify or a bare
// node:http server process loads nothing of lacquer (data.ts holds the same values as lacquer types them).

export const PREFIX = '/api';
/** Where the protocols bench serves the same service as JSON-RPC 2.0. */
export const RPC_PREFIX = '/rpc';
/** Where lacquer and Fastify serve `getUserById` behind a bearer token; node:http does not. */
export const AUTH_PREFIX = '/authed';

/** Ten users, ids as plain numbers; the weights are exact in float32, so every server writes the same JSON. */
export const PLAIN_USERS: readonly { readonly id: number; readonly name: string; readonly weight: number }[] =
  Array.from({ length: 10 }, (_, i) => ({
    id: i + 1,
    name: ['Ada', 'Linus', 'Grace', 'Barbara', 'Edsger', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis'][i]!,
    weight: 50 + i * 2.25,
  }));

/** The body of the POST object endpoint. */
export const NEW_BOOK = {
  id: 42,
  title: 'The Left Hand of Darkness',
  author: 'Ursula K. Le Guin',
  isbn: '978-0-441-47812-5',
  year: 1969,
};

/** The body of the POST scalar endpoint and the id of the routed GET. */
export const PLAIN_USER_ID = 7;

/** How many users the stream answers: the ten, ten times over. */
export const FEED_LENGTH = 100;
/** Where lacquer and Hono serve the stream (on Bun). */
export const FEED_PATH = `${PREFIX}/listUserFeed`;

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
