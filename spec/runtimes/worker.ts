// The vectors' app (./app.ts) as a Worker, for workerd: runtimes.spec.ts bundles it with esbuild
// and serves it with a generated capnp config. Everything is built here, at module top level, which
// workerd runs while the Worker starts (where it allows `new Function`); requests come later.
import { makeApp } from './app.ts';

// Workers pass `env` and `ctx` after the request (`call.platform` is `[env, ctx]`); Cloudflare's
// edge puts the client's address in `CF-Connecting-IP` (workerd alone sets nothing).
const handle = makeApp({ ip: (request) => request.headers.get('cf-connecting-ip') });

export default {
  fetch: (request: Request, env: unknown, ctx: unknown) => handle(request, env, ctx),
};
