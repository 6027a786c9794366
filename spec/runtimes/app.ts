// The application the runtime vectors (spec/runtimes/vectors.ts) are asked of: a REST registry and a
// JSON-RPC registry of the same services, served by fetch handlers, built from lacquer's public entry
// points only. It runs unchanged in Node (in process), Bun (`Bun.serve`), Deno (`Deno.serve`) and
// workerd (bundled by esbuild), so it imports nothing from node:*, chai or mocha, and reads no `process`.
//
// Everything here is built at module top level, which a Worker runs while it starts: the registry
// compiles its endpoints' code then, while workerd still allows `new Function`. The `codegen`
// endpoint uses descriptors for the first time during a request, where workerd refuses it.
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import {
  HttpError,
  JSONRPC,
  Registry,
  bearerAuth,
  contextKey,
  generatedSource,
  meta,
  method,
  service,
  t,
  type Call,
  type Infer,
  type Interceptor,
} from '../../index.ts';
import { toFetchHandler, type FetchHandlerOptions } from '../../transports/fetch/index.ts';

/** Where the registry is mounted. */
export const PREFIX = '/api';
/** Where the same services answer JSON-RPC 2.0. */
export const RPC_PREFIX = '/rpc';
/** The fetch handler's body limit for this app: small, so that 413 is cheap to reach. */
export const MAX_BODY_BYTES = 4096;
/** The one origin CORS allows. */
export const ALLOWED_ORIGIN = 'https://app.example';
/** A message that must never reach a client. */
export const SECRET = 'the signing key is swordfish';
/** The bearer tokens `verify` knows. */
export const TOKENS = { good: 'good-token', suspended: 'suspended-token', wrong: 'wrong-token' } as const;
/** The address of the load balancer in front of the app, which `trustProxy` believes. */
export const LOAD_BALANCER = '127.0.0.1';

export const Sample = t.object(
  {
    id: t.u64(),
    count: t.i32(),
    ratio: t.f64(),
    label: t.string(),
    tags: t.array(t.string()),
    flag: t.bool(),
  },
  { name: 'Sample' },
);
export type Sample = Infer<typeof Sample>;

/** What `getSample` answers: a u64 above 2^53 and text outside ASCII. */
export const SAMPLE: Sample = {
  id: 2n ** 64n - 1n,
  count: -7,
  ratio: 0.5,
  label: 'grüße',
  tags: ['a', 'b'],
  flag: true,
};

/** How many samples `listSamples` answers: enough for well over 1 KiB in every codec (the compression threshold). */
export const LIST_LENGTH = 24;

/** The `i`th sample of `listSamples`. */
export function listedSample(i: number): Sample {
  return {
    id: 2n ** 64n - 1n - BigInt(i),
    count: i - 12,
    ratio: i / 8,
    label: `sample ${i}: grüße`,
    tags: ['a', 'b', `t${i}`],
    flag: i % 2 === 0,
  };
}

// ---- Samples: codecs, negotiation, statuses, headers, errors ------------------------------------

export class Samples {
  /** GET (rule 4): HEAD, OPTIONS, 405 and negotiation are asked of it. */
  getSample(): Sample {
    return SAMPLE;
  }
  /** POST: every codec in, every codec out. */
  echoSample(sample: Sample): Sample {
    return { ...sample, count: sample.count + 1 };
  }
  /** GET: an answer over the compression threshold (JSON, MessagePack and CBOR alike). */
  listSamples(): Sample[] {
    return Array.from({ length: LIST_LENGTH }, (_, i) => listedSample(i));
  }
  /** POST: a large body in (compressed, say), a large answer out. */
  echoSamples(samples: Sample[]): Sample[] {
    return samples.map((sample) => ({ ...sample, count: sample.count + 1 }));
  }
  /** POST, 201 with a Location. */
  createSample(sample: Sample, call: Call): Sample {
    call.header('location', `${PREFIX}/samples/${sample.id}`);
    return sample;
  }
  /** DELETE, 204. */
  deleteSample(_id: bigint): void {}
  /** Two Set-Cookie lines. */
  login(call: Call): void {
    call.header('set-cookie', 'session=s1; Path=/; HttpOnly');
    call.header('set-cookie', 'theme=dark; Path=/');
  }
  /** A failure whose message must not leak. */
  crash(): string {
    throw new Error(SECRET);
  }
  /** An HttpError with its own header and an extension member. */
  reserve(seat: string): string {
    throw new HttpError(409, `seat ${seat} is taken`, { headers: { 'retry-after': '30' }, extensions: { seat } });
  }
}

meta(
  Samples,
  service({
    getSample: method([], Sample),
    echoSample: method([Sample], Sample),
    listSamples: method([], t.array(Sample)),
    echoSamples: method([t.array(Sample)], t.array(Sample)),
    createSample: method([Sample], Sample, { status: 201 }),
    deleteSample: method([t.u64()], t.void()),
    login: method([], t.void()),
    crash: method([], t.string()),
    reserve: method([t.string()], t.string()),
  }),
);

// ---- Samples as resources: routes with path and query parameters --------------------------------

export const SampleQuery = t.object(
  { label: t.string(), limit: t.u8({ maximum: 10 }).default(2) },
  { name: 'SampleQuery' },
);

export class SampleResources {
  /** `GET /samples/:id`: the id read from its segment, a u64 above 2^53 exact. */
  sampleById({ id }: { id: bigint }): Sample {
    return { ...SAMPLE, id };
  }
  /** `PUT /samples/:id`: the id from the path, the label from the body. */
  relabel({ id, label }: { id: bigint; label: string }): Sample {
    return { ...SAMPLE, id, label };
  }
  /** `GET /samples?label=..&limit=..`: an object parameter spread over the query. */
  findSamples({ query }: { query: Infer<typeof SampleQuery> }): string[] {
    return Array.from({ length: query.limit }, (_, i) => `${query.label} ${i}`);
  }
  /** `GET /samples/:id/secret`: a route with security. */
  secretSample({ id }: { id: bigint }, call: Call): string {
    return `${id} for ${call.get(CALLER).name}`;
  }
}

// ---- Streams: items as they come, in the framing Accept chooses ----------------------------------

export class SampleStreams {
  /** `GET /streamSamples`: three samples, then the end. */
  async *streamSamples(): AsyncIterable<Sample> {
    for (let i = 0; i < 3; i++) yield listedSample(i);
  }
  /** `POST /countSamples`: the samples of a request stream, read as they arrive, counted. */
  async countSamples(samples: AsyncIterable<Sample>): Promise<string> {
    let count = 0;
    let labels = '';
    for await (const sample of samples) {
      count++;
      labels += sample.label.slice(0, 1);
    }
    return `${count} ${labels}`;
  }
  /** `GET /streamThenFail`: one sample, then a problem ending the stream. */
  async *streamThenFail(): AsyncIterable<Sample> {
    yield listedSample(0);
    throw new HttpError(409, 'the feed moved on');
  }
}
meta(
  SampleStreams,
  service({
    streamSamples: method([], t.stream(Sample), { verb: 'GET' }),
    streamThenFail: method([], t.stream(Sample), { verb: 'GET' }),
    countSamples: method([t.stream(Sample)], t.string()),
  }),
);

// ---- Vault: bearer security ---------------------------------------------------------------------

export const Caller = t.object({ name: t.string() }, { name: 'Caller' });
const CALLER = contextKey<Infer<typeof Caller>>('caller');

export class Vault {
  whoAmI(call: Call): Infer<typeof Caller> {
    return call.get(CALLER);
  }
}
meta(Vault, service({ whoAmI: method([], Caller) }, { security: ['bearer'] }));

meta(
  SampleResources,
  service({
    sampleById: method({ id: t.u64() }, Sample, { route: 'GET /samples/:id' }),
    relabel: method({ id: t.u64(), label: t.string() }, Sample, { route: 'PUT /samples/:id' }),
    findSamples: method({ query: SampleQuery }, t.array(t.string()), { route: 'GET /samples' }),
    secretSample: method({ id: t.u64() }, t.string(), { route: 'GET /samples/:id/secret', security: ['bearer'] }),
  }),
);

const bearer = bearerAuth({
  key: CALLER,
  verify: (token) => {
    if (token === TOKENS.good) return { name: 'ada' };
    if (token === TOKENS.suspended) throw new HttpError(403, 'ada is suspended');
    return undefined;
  },
});

// ---- Interceptors -------------------------------------------------------------------------------

const TRAIL = contextKey<string[]>('trail');

/** An interceptor that notes when it enters and leaves. */
function traced(name: string): Interceptor {
  return async (call, next) => {
    if (!call.has(TRAIL)) call.set(TRAIL, []);
    call.get(TRAIL).push(`${name} in`);
    const result = await next();
    call.get(TRAIL).push(`${name} out`);
    return result;
  };
}

export class Traced {
  trace(call: Call): string[] {
    call.get(TRAIL).push('method');
    return call.get(TRAIL);
  }
}
meta(Traced, service({ trace: method([], t.array(t.string())) }));

export class Throttled {
  throttled(): string {
    return 'from the method';
  }
}
meta(Throttled, service({ throttled: method([], t.string()) }));

const throttle: Interceptor = async () => {
  throw new HttpError(429, 'slow down', { headers: { 'retry-after': '7' } });
};

// ---- Platform: what the runtime passes, and the client's address --------------------------------

/** Members a runtime's extra arguments are known by (Bun's server, Deno's info, Workers' env and ctx). */
const KNOWN_MEMBERS = [
  'requestIP',
  'upgrade',
  'remoteAddr',
  'completed',
  'waitUntil',
  'passThroughOnException',
  'STAGE',
];

/** One platform argument, for the vectors: its type and which known members it has. */
export function describeArgument(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return typeof value;
  const members = KNOWN_MEMBERS.filter((name) => name in (value as object));
  return `${typeof value}{${members.join(',')}}`;
}

export class Platform {
  /** `call.platform`, described. */
  platform(call: Call): string[] {
    return call.platform.map(describeArgument);
  }
  /** `call.ip`, or `unknown`. */
  whereFrom(call: Call): string {
    return call.ip ?? 'unknown';
  }
}
meta(Platform, service({ platform: method([], t.array(t.string())), whereFrom: method([], t.string()) }));

// ---- Code generation: descriptors first used during a request ----------------------------------

/** Used for the first time in `codegen`'s request: never at start-up. */
export const Late = t.object({ id: t.u64(), names: t.array(t.string()), at: t.optional(t.f32()) }, { name: 'Late' });
const LATE: Infer<typeof Late> = { id: 2n ** 63n + 1n, names: ['x', 'ÿ'], at: 1.5 };

/** A service first registered during a request, on a registry made then. */
export const Inner = t.object({ id: t.u64(), note: t.string() }, { name: 'Inner' });
export class InnerService {
  echoInner(inner: Infer<typeof Inner>): Infer<typeof Inner> {
    return { ...inner, note: `${inner.note}!` };
  }
}
meta(InnerService, service({ echoInner: method([Inner], Inner) }));

export const CodegenReport = t.object(
  {
    registeredGenerated: t.bool(),
    lateRoundTrips: t.array(t.string()),
    lateGenerated: t.bool(),
    inner: t.array(t.string()),
  },
  { name: 'CodegenReport' },
);

export class Codegen {
  async codegen(): Promise<Infer<typeof CodegenReport>> {
    const lateRoundTrips = [json, msgpack, cbor].map((codec) => {
      const back = codec.decode(Late, codec.encode(Late, LATE));
      return `${codec.name} ${back.id === LATE.id && back.names.join() === LATE.names.join() && back.at === LATE.at}`;
    });
    // A registry built now: its endpoints compile (or fall back) during this request.
    const handle = toFetchHandler('/inner', new Registry().on(new InnerService()).endpoints);
    const inner: string[] = [];
    for (const [body, accept] of [
      ['{"id": 9007199254740993, "note": "hi"}', 'application/json'],
      ['{"id": -1, "note": "hi"}', 'application/json'],
    ] as const) {
      const answer = await handle(
        new Request('http://inner/inner/echoInner', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', accept, 'x-request-id': 'inner' },
        }),
      );
      inner.push(`${answer.status} ${answer.headers.get('content-type')} ${await answer.text()}`);
    }
    return {
      registeredGenerated:
        generatedSource(Sample, 'json') !== '' &&
        generatedSource(Sample, 'msgpack') !== '' &&
        generatedSource(Sample, 'cbor') !== '' &&
        generatedSource(Sample, 'read') !== '',
      lateRoundTrips,
      lateGenerated: generatedSource(Late) !== '',
      inner,
    };
  }
}
meta(Codegen, service({ codegen: method([], CodegenReport) }));

// ---- The app ------------------------------------------------------------------------------------

/** What an entry point tells the app about its runtime. */
export interface AppOptions {
  /** Where the runtime keeps the connection's address (the fetch handler's `ip`). */
  ip?: FetchHandlerOptions['ip'];
}

/** The registry, built when called (at module top level in every entry point). */
export function appRegistry(): Registry {
  return new Registry({ security: { bearer }, interceptors: [traced('registry')] })
    .on(new Samples())
    .on(new Vault())
    .on(new SampleResources())
    .on(new SampleStreams())
    .on(new Traced(), { interceptors: [traced('service')] })
    .on(new Throttled(), { interceptors: [throttle] })
    .on(new Platform())
    .on(new Codegen());
}

/** The services of the app a JSON-RPC 2.0 registry serves at {@link RPC_PREFIX}. */
export function rpcRegistry(): Registry {
  return new Registry({ security: { bearer }, onWarning: () => {} }, JSONRPC)
    .on(new Samples())
    .on(new Vault())
    .on(new SampleResources());
}

/** The fetch handler every runtime serves: the REST registry under {@link PREFIX}, the JSON-RPC one at {@link RPC_PREFIX}. */
export function makeApp(options: AppOptions = {}): (request: Request, ...platform: unknown[]) => Promise<Response> {
  const transport = {
    maxBodyBytes: MAX_BODY_BYTES,
    cors: { origins: [ALLOWED_ORIGIN], exposeHeaders: ['x-request-id'], maxAgeSeconds: 300 },
    trustProxy: (address: string) => address === LOAD_BALANCER,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
  };
  const rest = toFetchHandler(PREFIX, appRegistry().endpoints, transport);
  const rpc = toFetchHandler(RPC_PREFIX, rpcRegistry().endpoints, transport);
  return (request, ...platform) =>
    (new URL(request.url).pathname.startsWith(RPC_PREFIX) ? rpc : rest)(request, ...platform);
}
