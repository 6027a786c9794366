// The example's services (examples/services.ts, contracts.ts, auth.ts) as a Cloudflare Worker:
// see wrangler.toml next to this file, and docs/deployment.md. In a project of your own the imports
// are 'lacquerjs', 'lacquerjs/fetch' and 'lacquerjs/json'.
//
// Everything at module top level runs once, when the isolate starts: the registry is built here,
// which compiles its endpoints' readers and writers while workerd still allows `new Function`.
// Each request then runs the compiled code; `env` and `ctx` reach methods as `call.platform`.
import { json } from '../../codecs/json/index.ts';
import { Registry, bearerAuth } from '../../index.ts';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { CALLER, demoTokens, type Caller } from '../auth.ts';
import { Book } from '../records.ts';
import { BookService, UserService } from '../services.ts';

/** The Worker's bindings: secrets set with `wrangler secret put` (or `[vars]`), all optional. */
export type Env = {
  readonly LACQUER_DEMO_TOKEN?: string;
  readonly LACQUER_READONLY_TOKEN?: string;
};

// Bindings are per request (the first argument after the request), so the tokens are looked up
// there: `call.platform` is `[env, ctx]` on Workers.
const bearer = bearerAuth<Caller>({
  key: CALLER,
  verify: (token, call) => {
    const tokens = demoTokens(call.platform[0] as Env);
    if (token === tokens.demo) return { name: 'demo', canWrite: true };
    if (token === tokens.readOnly) return { name: 'read-only', canWrite: false };
    return undefined;
  },
});

const books = new BookService('/api/books');
const registry = new Registry({ security: { bearer } }).on(new UserService()).on(books);
const api = toFetchHandler('/api', registry.endpoints);

/** `GET /api/books/<id>`, what createBook's `Location` names: a route of the Worker's own. */
function bookRoute(request: Request): Response | undefined {
  const found = request.method === 'GET' ? /^\/api\/books\/(\d{1,10})$/.exec(new URL(request.url).pathname) : null;
  if (found === null) return undefined;
  const book = books.find(Number(found[1]));
  if (book === undefined) return Response.json({ type: 'about:blank', title: 'Not Found', status: 404, detail: `no book with id ${found[1]}` }, { status: 404, headers: { 'content-type': 'application/problem+json' } });
  return new Response(json.encode(Book, book), { headers: { 'content-type': 'application/json' } });
}

export default {
  fetch: (request: Request, env: Env, ctx: unknown): Response | Promise<Response> => bookRoute(request) ?? api(request, env, ctx),
};
