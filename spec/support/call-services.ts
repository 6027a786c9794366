// What the calls conformance suite (spec/transports/calls.case.ts) serves: one registry with every
// security scheme, services that set statuses and headers, services wrapped by interceptors, and
// recorders that keep each call, verify, onError and onResponse by request id for the specs to read.
import type { IncomingMessage } from 'node:http';
import {
  HttpError,
  Registry,
  apiKeyAuth,
  basicAuth,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type ErrorContext,
  type Infer,
  type Interceptor,
  type ResponseReport,
  type SecurityScheme,
} from '../../index.ts';

/** A message that must never reach a client. */
export const SECRET = 'the signing key is swordfish';

/** What `verify` does with a credential (for basic auth: with the password of user `ada`). */
export const CREDENTIAL = {
  good: 'good-credential',
  wrong: 'wrong-credential',
  forbidden: 'forbidden-credential',
  crash: 'crash-credential',
  hang: 'hang-credential',
} as const;

/** A promise and the function settling it, for what a spec awaits. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A deferred per request id, made by whichever side asks first: the spec waiting, or the server. */
class Slots<T> {
  readonly #slots = new Map<string, Deferred<T>>();
  slot(id: string): Deferred<T> {
    let slot = this.#slots.get(id);
    if (slot === undefined) this.#slots.set(id, (slot = deferred<T>()));
    return slot;
  }
}

export const Caller = t.object({ name: t.string(), scheme: t.string() }, { name: 'Caller' });
export type Caller = Infer<typeof Caller>;
/** Where every scheme stores the caller its verify returned. */
export const CALLER = contextKey<Caller>('caller');

/** One `verify` call: which scheme, with what credential. */
export interface Verification {
  readonly scheme: string;
  readonly credential: string;
}

/**
 * The `verify` of every scheme: admits, refuses, forbids (403), fails or never answers according
 * to the credential, and keeps each call by request id.
 */
export class Gatekeeper {
  readonly #seen = new Map<string, Verification[]>();
  /** The signals of calls whose verify never answers. */
  readonly hanging = new Slots<AbortSignal>();

  /** What verify was given for the request `id`. */
  seen(id: string): readonly Verification[] {
    return this.#seen.get(id) ?? [];
  }

  verify(scheme: string, credential: string, call: Call): Caller | undefined | Promise<Caller | undefined> {
    const seen = this.#seen.get(call.requestId) ?? [];
    this.#seen.set(call.requestId, [...seen, { scheme, credential }]);
    switch (credential) {
      case CREDENTIAL.good:
        return { name: 'ada', scheme };
      case CREDENTIAL.forbidden:
        throw new HttpError(403, 'ada is suspended');
      case CREDENTIAL.crash:
        throw new Error(SECRET);
      case CREDENTIAL.hang:
        this.hanging.slot(call.requestId).resolve(call.signal);
        return new Promise(() => {});
      default:
        return undefined;
    }
  }

  /** The registry's schemes, by the names contracts use. */
  schemes(): Record<string, SecurityScheme> {
    return {
      bearer: bearerAuth({ verify: (token, call) => this.verify('bearer', token, call), key: CALLER }),
      headerKey: apiKeyAuth({
        header: 'x-api-key',
        verify: (key, call) => this.verify('headerKey', key, call),
        key: CALLER,
      }),
      queryKey: apiKeyAuth({
        query: 'api_key',
        verify: (key, call) => this.verify('queryKey', key, call),
        key: CALLER,
      }),
      basic: basicAuth({
        verify: ({ username, password }, call) =>
          username === 'ada' ? this.verify('basic', password, call) : undefined,
        key: CALLER,
      }),
    };
  }
}

/** Every `onError` and `onResponse` of the registry, and every call its methods saw, by request id. */
export class Recorder {
  readonly #errors = new Map<string, { error: unknown; context: ErrorContext }[]>();
  readonly #reports = new Slots<ResponseReport>();
  readonly #calls = new Slots<Call>();

  readonly onError = (error: unknown, context: ErrorContext): void => {
    this.#errors.set(context.requestId, [...this.errors(context.requestId), { error, context }]);
  };

  readonly #reportCounts = new Map<string, number>();

  readonly onResponse = (report: ResponseReport): void => {
    const id = report.call.requestId;
    this.#reportCounts.set(id, (this.#reportCounts.get(id) ?? 0) + 1);
    this.#reports.slot(id).resolve(report);
  };

  /** What `onError` was told about the request `id`. */
  errors(id: string): readonly { error: unknown; context: ErrorContext }[] {
    return this.#errors.get(id) ?? [];
  }

  /** How many times `onResponse` was told of the request `id`. */
  reportCount(id: string): number {
    return this.#reportCounts.get(id) ?? 0;
  }

  /** The (first) report of the request `id`, once `onResponse` has it. */
  report(id: string): Promise<ResponseReport> {
    return this.#reports.slot(id).promise;
  }

  /** Keeps a call for the spec. */
  keep(call: Call): void {
    this.#calls.slot(call.requestId).resolve(call);
  }

  /** The call of the request `id`, once a method has kept it. */
  call(id: string): Promise<Call> {
    return this.#calls.slot(id).promise;
  }
}

/** One method per scheme, each answering with the caller its scheme stored; `upload` counts its runs. */
export class Vault {
  uploads = 0;
  bearerWho(call: Call): Caller {
    return call.get(CALLER);
  }
  headerKeyWho(call: Call): Caller {
    return call.get(CALLER);
  }
  queryKeyWho(call: Call): Caller {
    return call.get(CALLER);
  }
  basicWho(call: Call): Caller {
    return call.get(CALLER);
  }
  eitherWho(call: Call): Caller {
    return call.get(CALLER);
  }
  upload(text: string): number {
    this.uploads++;
    return text.length;
  }
}

/** The method of each scheme. */
export const WHO: Readonly<Record<string, string>> = {
  bearer: 'bearerWho',
  headerKey: 'headerKeyWho',
  queryKey: 'queryKeyWho',
  basic: 'basicWho',
};

export const VaultApi = meta(
  Vault,
  service({
    bearerWho: method([], Caller, { security: ['bearer'] }),
    headerKeyWho: method([], Caller, { security: ['headerKey'] }),
    queryKeyWho: method([], Caller, { security: ['queryKey'] }),
    basicWho: method([], Caller, { security: ['basic'] }),
    eitherWho: method([], Caller, { security: ['bearer', 'headerKey'] }),
    upload: method([t.string()], t.u32(), { security: ['bearer'] }),
  }),
);

export const Note = t.object({ id: t.u64(), text: t.string() }, { name: 'Note' });

/** A service behind bearer auth: creating answers 201 with a Location; `ping` is public. */
export class Notes {
  /** Ids past 2^63, where i64 would not do. */
  #next = 2n ** 63n;
  createNote(text: string, call: Call): Infer<typeof Note> {
    const id = this.#next++;
    call.header('location', `/notes/${id}`);
    return { id, text: `${text} by ${call.get(CALLER).name}` };
  }
  ping(): string {
    return 'pong';
  }
}

export const NotesApi = meta(
  Notes,
  service(
    {
      createNote: method([t.string()], Note, { status: 201 }),
      ping: method([], t.string(), { security: [] }),
    },
    { security: ['bearer'] },
  ),
);

/** Public methods that choose their answer's status and headers, rightly or wrongly. */
export class Answers {
  constructor(private readonly recorder: Recorder) {}
  createMarker(): void {}
  submitJob(urgent: boolean, call: Call): string {
    if (!urgent) call.status(202);
    return urgent ? 'done' : 'queued';
  }
  login(call: Call): void {
    call.header('set-cookie', 'session=s1; Path=/; HttpOnly');
    call.header('set-cookie', 'theme=dark; Path=/');
  }
  redirect(call: Call): string {
    call.status(302);
    return 'elsewhere';
  }
  injectHeader(call: Call): string {
    call.header('x-note', 'a\r\nx-injected: yes');
    return 'injected';
  }
  forgeRequestId(call: Call): string {
    call.header('x-request-id', 'forged');
    return 'forged';
  }
  readCaller(call: Call): string {
    return call.get(CALLER).name;
  }
  crash(): string {
    throw new Error(SECRET);
  }
  echoNote(note: Infer<typeof Note>): Infer<typeof Note> {
    return note;
  }
  /** The client's address, and the call kept for the spec (platform, signal...). */
  whereFrom(call: Call): string {
    this.recorder.keep(call);
    return call.ip ?? 'unknown';
  }
  /** Keeps the call and answers only once its signal aborts (with the reason, as an error). */
  waitForAbort(call: Call): Promise<string> {
    this.recorder.keep(call);
    return new Promise((_, reject) =>
      call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true }),
    );
  }
  /** Answers normally, but only once its signal aborts: too late for a handler timeout. */
  outlive(call: Call): Promise<string> {
    return new Promise((resolve) => call.signal.addEventListener('abort', () => resolve('too late'), { once: true }));
  }
}

export const AnswersApi = meta(
  Answers,
  service({
    createMarker: method([], t.void(), { status: 201 }),
    submitJob: method([t.bool()], t.string()),
    login: method([], t.void()),
    redirect: method([], t.string()),
    injectHeader: method([], t.string()),
    forgeRequestId: method([], t.string()),
    readCaller: method([], t.string()),
    crash: method([], t.string()),
    echoNote: method([Note], Note),
    whereFrom: method([], t.string()),
    waitForAbort: method([], t.string()),
    outlive: method([], t.string()),
  }),
);

/** The trail interceptors leave in a call. */
const TRAIL = contextKey<string[]>('trail');

function trail(call: Call): string[] {
  if (!call.has(TRAIL)) call.set(TRAIL, []);
  return call.get(TRAIL);
}

/** An interceptor that notes when it enters and leaves. */
function traced(name: string): Interceptor {
  return async (call, next) => {
    trail(call).push(`${name} in`);
    const result = await next();
    trail(call).push(`${name} out`);
    return result;
  };
}

/** The registry's own interceptors: they wrap every call of every service. */
export const REGISTRY_INTERCEPTORS: readonly Interceptor[] = [traced('registry 1'), traced('registry 2')];

/**
 * Answers with the trail of the interceptors around it. The array is written after they all
 * returned, so it holds their exits as well as their entries.
 */
export class Traced {
  trace(call: Call): string[] {
    trail(call).push('method');
    return trail(call);
  }
}
meta(Traced, service({ trace: method([], t.array(t.string())) }));

/** Counts the runs of its one method, for interceptors that replace or refuse it. */
abstract class Counted {
  runs = 0;
  protected run(): string {
    this.runs++;
    return 'from the method';
  }
}
const ONE_STRING = method([], t.string());
class Replaced extends Counted {
  replaced() {
    return this.run();
  }
}
meta(Replaced, service({ replaced: ONE_STRING }));
class Throttled extends Counted {
  throttled() {
    return this.run();
  }
}
meta(Throttled, service({ throttled: ONE_STRING }));
class Broken extends Counted {
  broken() {
    return this.run();
  }
}
meta(Broken, service({ broken: ONE_STRING }));
class Twice extends Counted {
  twice() {
    return this.run();
  }
}
meta(Twice, service({ twice: ONE_STRING }));
class TwiceQuietly extends Counted {
  twiceQuietly() {
    return this.run();
  }
}
meta(TwiceQuietly, service({ twiceQuietly: ONE_STRING }));

/** Services each mounted with one interceptor, by the path of their method. */
export function interceptedServices() {
  return {
    replaced: {
      service: new Replaced(),
      interceptor: (async (_call, next) => {
        await next();
        return 'from the interceptor';
      }) as Interceptor,
    },
    throttled: {
      service: new Throttled(),
      interceptor: (async () => {
        throw new HttpError(429, 'slow down', { headers: { 'retry-after': '7' } });
      }) as Interceptor,
    },
    broken: {
      service: new Broken(),
      interceptor: (async () => {
        throw new Error(SECRET);
      }) as Interceptor,
    },
    twice: {
      service: new Twice(),
      interceptor: (async (_call, next) => {
        await next();
        return next();
      }) as Interceptor,
    },
    // The second next() rejects; swallowing that does not make the answer a success.
    twiceQuietly: {
      service: new TwiceQuietly(),
      interceptor: (async (_call, next) => {
        const result = await next();
        await next().catch(() => {});
        return result;
      }) as Interceptor,
    },
  };
}

/** Two parameters, read by an interceptor before the method runs. */
export class Inspected {
  label(note: Infer<typeof Note>, times: number): string {
    return note.text.repeat(times);
  }
}

export const InspectedApi = meta(Inspected, service({ label: method([Note, t.u32()], t.string()) }));

/** An interceptor keeping the decoded arguments it sees, by request id. */
export function argsKeeper() {
  const seen = new Map<string, readonly unknown[]>();
  const interceptor: Interceptor = (call, next) => {
    seen.set(call.requestId, [...call.args]);
    return next();
  };
  return { seen, interceptor };
}

/** Everything the suite serves, on one registry. */
export function callsRegistry() {
  const gate = new Gatekeeper();
  const recorder = new Recorder();
  const vault = new Vault();
  const intercepted = interceptedServices();
  const args = argsKeeper();
  const registry = new Registry({
    security: gate.schemes(),
    interceptors: REGISTRY_INTERCEPTORS,
    onError: recorder.onError,
    onResponse: recorder.onResponse,
    // Larger than the uploads of the specs, so that a 401 is never a 413 in disguise.
    maxBodyBytes: 4 * 1024 * 1024,
  })
    .on(vault)
    .on(new Notes())
    .on(new Answers(recorder))
    .on(new Traced(), { interceptors: [traced('service 1'), traced('service 2')] })
    .on(new Inspected(), { interceptors: [args.interceptor] });
  for (const { service: instance, interceptor } of Object.values(intercepted))
    registry.on(instance, { interceptors: [interceptor] });
  return { registry, gate, recorder, vault, intercepted, args };
}

/** The extra arguments a Deno-like runtime passes the fetch handler: its connection info. */
export interface ConnInfo {
  readonly remoteAddr: { readonly hostname: string | undefined; readonly port: number | undefined };
}

/** A Workers-like `env`, passed after the connection info: the same object for every request. */
export const WORKER_ENV = Object.freeze({ STAGE: 'conformance' });

/** The platform arguments `serveFetch` passes for `req`: Deno's `info`, then a Workers `env`. */
export function fetchPlatform(req: IncomingMessage): readonly unknown[] {
  const info: ConnInfo = { remoteAddr: { hostname: req.socket.remoteAddress, port: req.socket.remotePort } };
  return [info, WORKER_ENV];
}

/** The fetch handler's `ip` option for {@link fetchPlatform}: Deno's `info.remoteAddr.hostname`. */
export function fetchIp(_request: Request, ...platform: unknown[]): string | undefined {
  return (platform[0] as ConnInfo | undefined)?.remoteAddr.hostname;
}
