// Fastify 5 as its users write it: JSON schemas for body (ajv validation) and response
// (fast-json-stringify serialization), default options, no logger. The auth case is a plugin under
// its own prefix with an `onRequest` hook for the bearer token and a `preHandler` hook counting calls.
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestHookHandler,
  type preHandlerHookHandler,
} from 'fastify';
import {
  AUTH_PREFIX,
  CHALLENGE,
  INVALID_TOKEN_CHALLENGE,
  type NEW_BOOK,
  PLAIN_USERS,
  PREFIX,
  TOKENS,
  type Caller,
} from '../plain.ts';
import type { RunningServer } from './types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth case's `onRequest` hook. */
    caller: Caller | null;
  }
}

const user = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 0 }, name: { type: 'string' }, weight: { type: 'number' } },
  required: ['id', 'name', 'weight'],
  additionalProperties: false,
} as const;

const book = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    author: { type: 'string' },
    isbn: { type: 'string' },
    year: { type: 'integer' },
  },
  required: ['id', 'title', 'author', 'isbn', 'year'],
  additionalProperties: false,
} as const;

type PlainBook = typeof NEW_BOOK;

/** RFC 6750's `b64token`, and the longest token read: the checks lacquer's `bearerAuth` makes. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 8192;

/**
 * The bearer check as a hand-written `onRequest` hook: `Authorization: Bearer <token>`, the token
 * looked up in a Map; 401 with `WWW-Authenticate` when it is missing, malformed or unknown.
 */
function bearerHook(tokens: ReadonlyMap<string, Caller>): onRequestHookHandler {
  const refuse = (reply: FastifyReply, challenge: string, message: string) =>
    reply.code(401).header('www-authenticate', challenge).send({ message });
  return (request, reply, done) => {
    const header = request.headers.authorization;
    const space = header === undefined ? -1 : header.indexOf(' ');
    if (header === undefined || (space === -1 ? header : header.slice(0, space)).toLowerCase() !== 'bearer') {
      return refuse(reply, CHALLENGE, 'this call needs credentials');
    }
    // Spaces only around the token (RFC 9110's SP), as lacquer's bearerAuth reads it.
    const token = space === -1 ? '' : header.slice(space + 1).replace(/^ +| +$/g, '');
    if (token === '' || token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token))
      return refuse(reply, INVALID_TOKEN_CHALLENGE, 'malformed token');
    const caller = tokens.get(token);
    if (caller === undefined) return refuse(reply, INVALID_TOKEN_CHALLENGE, 'the credentials were refused');
    request.caller = caller;
    done();
  };
}

export async function startFastify(port = 0): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  const byId = new Map(PLAIN_USERS.map((u) => [u.id, u]));

  const getUserById = async (request: FastifyRequest<{ Body: number }>, reply: FastifyReply) => {
    const found = byId.get(request.body);
    if (found === undefined) return reply.code(404).send({ message: `no user with id ${request.body}` });
    return found;
  };
  const getUserByIdSchema = { schema: { body: { type: 'integer', minimum: 0 }, response: { 200: user } } } as const;

  app.get(
    `${PREFIX}/listUsers`,
    { schema: { response: { 200: { type: 'array', items: user } } } },
    async () => PLAIN_USERS,
  );

  app.post<{ Body: PlainBook }>(
    `${PREFIX}/createBook`,
    { schema: { body: book, response: { 200: book } } },
    async (request, reply) => {
      if (request.body.title === '') return reply.code(400).send({ message: 'title must not be empty' });
      return request.body;
    },
  );

  app.post<{ Body: number }>(`${PREFIX}/getUserById`, getUserByIdSchema, getUserById);

  const userParams = {
    type: 'object',
    properties: { id: { type: 'integer', minimum: 0 } },
    required: ['id'],
    additionalProperties: false,
  } as const;
  app.get<{ Params: { id: number } }>(
    `${PREFIX}/users/:id`,
    { schema: { params: userParams, response: { 200: user } } },
    async (request, reply) => {
      const found = byId.get(request.params.id);
      if (found === undefined) return reply.code(404).send({ message: `no user with id ${request.params.id}` });
      return found;
    },
  );

  // The auth case: hooks scoped to the plugin, so the routes above run without them.
  app.decorateRequest('caller', null);
  await app.register(
    async (authed: FastifyInstance) => {
      const tokens = new Map(TOKENS);
      const callsByCaller = new Map<string, number>();
      const countCalls: preHandlerHookHandler = (request, _reply, done) => {
        const { id } = request.caller!;
        callsByCaller.set(id, (callsByCaller.get(id) ?? 0) + 1);
        done();
      };
      authed.addHook('onRequest', bearerHook(tokens));
      authed.addHook('preHandler', countCalls);
      authed.post<{ Body: number }>('/getUserById', getUserByIdSchema, getUserById);
    },
    { prefix: AUTH_PREFIX },
  );

  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : port, close: () => app.close() };
}
