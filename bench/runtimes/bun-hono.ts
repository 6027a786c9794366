// Hono on Bun as its users write it (hono.dev's validation guide: Zod with @hono/zod-validator): the
// HTTP bench's endpoints, bodies checked by Zod 4 schemas as strict as lacquer's reading
// (every key required, no unknown key, integers in range), answers written by `c.json`. Run by
// bench/runtimes/bun.ts as `bun run <this file>`; prints `LISTENING <port>`.
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as z from 'zod';
import { FEED_LENGTH, PLAIN_USERS, PREFIX } from '../http/plain.ts';

declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: unknown): Response | Promise<Response>;
  }): { readonly port: number };
};

/** A Book as lacquer's descriptor reads it: i32 id and year, every key, nothing else. */
const book = z.strictObject({
  id: z.int32(),
  title: z.string(),
  author: z.string(),
  isbn: z.string(),
  year: z.int32(),
});
/** A u64 as JSON carries it here: a non-negative integer. */
const userId = z.int().min(0);

const byId = new Map(PLAIN_USERS.map((u) => [u.id, u]));

const app = new Hono().basePath(PREFIX);
app.get('/listUsers', (c) => c.json(PLAIN_USERS));
app.post('/createBook', zValidator('json', book), (c) => {
  const body = c.req.valid('json');
  if (body.title === '') return c.json({ message: 'title must not be empty' }, 400);
  return c.json(body);
});
app.post('/getUserById', zValidator('json', userId), (c) => {
  const id = c.req.valid('json');
  const user = byId.get(id);
  if (user === undefined) return c.json({ message: `no user with id ${id}` }, 404);
  return c.json(user);
});

app.get('/users/:id', zValidator('param', z.strictObject({ id: z.coerce.number().int().min(0) })), (c) => {
  const { id } = c.req.valid('param');
  const user = byId.get(id);
  if (user === undefined) return c.json({ message: `no user with id ${id}` }, 404);
  return c.json(user);
});

app.get('/listUserFeed', (c) =>
  streamSSE(c, async (stream) => {
    for (let i = 0; i < FEED_LENGTH; i++)
      await stream.writeSSE({ data: JSON.stringify(PLAIN_USERS[i % PLAIN_USERS.length]) });
  }),
);

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch });
console.log(`LISTENING ${server.port}`);
