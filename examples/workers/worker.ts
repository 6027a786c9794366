// The example's services (examples/services.ts, contracts.ts, auth.ts) as a Cloudflare Worker:
// see wrangler.toml next to this file, and docs/deployment.md. In a project of your own the imports
// are 'lacquerjs' and 'lacquerjs/fetch'.
//
// Everything at module top level runs once, when the isolate starts: the registry is built here,
// which compiles its endpoints' readers and writers while workerd still allows `new Function`.
// Each request then runs the compiled code; `env` and `ctx` reach methods as `call.platform`.
import { Registry, bearerAuth } from '../../index.ts';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { CALLER, demoTokens, type Caller } from '../auth.ts';
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

// Every route is the registry's, `GET /api/books/:id` (createBook's `Location`) included.
const registry = new Registry({ security: { bearer } }).on(new UserService()).on(new BookService());
const api = toFetchHandler('/api', registry.endpoints);

export default {
  fetch: (request: Request, env: Env, ctx: unknown): Promise<Response> => api(request, env, ctx), // call.platform: [env, ctx]
};
