// Who may call the example's API: `Authorization: Bearer <token>`, checked against two demo tokens.
// A real application would look tokens up in its session store or verify a signed token here.
import { bearerAuth, contextKey, HttpError, type Call, type SecurityScheme } from '../index.ts';

/** The caller a token stands for; the services read it with `call.get(CALLER)`. */
export interface Caller {
  readonly name: string;
  readonly canWrite: boolean;
}

/** Where the bearer scheme stores the caller. */
export const CALLER = contextKey<Caller>('caller');

/** The two tokens the example server knows. */
export interface DemoTokens {
  /** May read and write. */
  readonly demo: string;
  /** Known, but answered 403 by every method that writes. */
  readonly readOnly: string;
}

// Fixed defaults rather than random ones, so that `npm start` and the curl commands of the docs work
// as written. They are no secret: set LACQUER_DEMO_TOKEN and LACQUER_READONLY_TOKEN to change them.
export const DEFAULT_DEMO_TOKEN = 'demo-token';
export const DEFAULT_READONLY_TOKEN = 'read-only-token';

/** RFC 6750's token characters: a token outside them never reaches `verify`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The tokens from `LACQUER_DEMO_TOKEN` and `LACQUER_READONLY_TOKEN`, else the defaults. */
export function demoTokens(env: Readonly<Record<string, string | undefined>> = process.env): DemoTokens {
  const tokens = {
    demo: env.LACQUER_DEMO_TOKEN || DEFAULT_DEMO_TOKEN,
    readOnly: env.LACQUER_READONLY_TOKEN || DEFAULT_READONLY_TOKEN,
  };
  for (const [name, token] of Object.entries(tokens)) {
    if (!B64TOKEN.test(token))
      throw new TypeError(
        `the ${name} token '${token}' holds characters a bearer token cannot have (A-Z a-z 0-9 - . _ ~ + /)`,
      );
  }
  if (tokens.demo === tokens.readOnly) throw new TypeError('LACQUER_DEMO_TOKEN and LACQUER_READONLY_TOKEN must differ');
  return tokens;
}

/** The registry's `bearer` scheme: a known token gives its caller, any other is answered 401. */
export function demoBearer(tokens: DemoTokens): SecurityScheme<string, Caller> {
  const callers = new Map<string, Caller>([
    [tokens.demo, { name: 'demo', canWrite: true }],
    [tokens.readOnly, { name: 'read-only', canWrite: false }],
  ]);
  return bearerAuth({ verify: (token) => callers.get(token), key: CALLER });
}

/** For methods that write: the caller, or a 403 for one that may only read. */
export function requireWriter(call: Call): Caller {
  const caller = call.get(CALLER);
  if (!caller.canWrite) throw new HttpError(403, `the ${caller.name} token may read but not write`);
  return caller;
}
