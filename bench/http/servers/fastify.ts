// Fastify 5 as its users write it: JSON schemas for body (ajv validation) and response
// (fast-json-stringify serialization), default options, no logger.
import Fastify from 'fastify';
import { NEW_BOOK, PLAIN_USERS, PREFIX } from '../data.ts';
import type { RunningServer } from './types.ts';

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

export async function startFastify(port = 0): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  const byId = new Map(PLAIN_USERS.map((u) => [u.id, u]));

  app.get(`${PREFIX}/listUsers`, { schema: { response: { 200: { type: 'array', items: user } } } }, async () => PLAIN_USERS);

  app.post<{ Body: PlainBook }>(`${PREFIX}/createBook`, { schema: { body: book, response: { 200: book } } }, async (request, reply) => {
    if (request.body.title === '') return reply.code(400).send({ message: 'title must not be empty' });
    return request.body;
  });

  app.post<{ Body: number }>(`${PREFIX}/getUserById`, { schema: { body: { type: 'integer', minimum: 0 }, response: { 200: user } } }, async (request, reply) => {
    const found = byId.get(request.body);
    if (found === undefined) return reply.code(404).send({ message: `no user with id ${request.body}` });
    return found;
  });

  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : port, close: () => app.close() };
}
