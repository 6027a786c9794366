// The calls conformance suite: what a transport serving a registry owes a service method and its
// caller (security before the body, statuses and headers the call sets, interceptors, onResponse,
// the call's signal, request ids, the platform and address), run against HttpServer and the fetch
// handler (spec/transports/conformance.spec.ts), through real HTTP.
import { expect } from 'chai';
import { IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import type { Codec } from '../../core/codec.ts';
import { HttpError, ReadError, t, type Endpoints, type Type } from '../../index.ts';
import { createClient } from '../../transports/client/index.ts';
import {
  CREDENTIAL,
  Caller,
  InspectedApi,
  Note,
  NotesApi,
  SECRET,
  WHO,
  WORKER_ENV,
  callsRegistry,
  type ConnInfo,
} from '../support/call-services.ts';
import type { Served } from '../support/fetch-server.ts';
import { send, type Reply, type SendOptions } from '../support/http-client.ts';

/** What the suite asks of a transport beyond its defaults. */
export interface CallsServeOptions {
  maxBodyBytes: number;
  handlerTimeoutMs?: number;
  trustProxy?: boolean;
}

/** A transport under test: which one (a few answers differ by design), and how to start it. */
export interface CallsTransport {
  readonly kind: 'HttpServer' | 'fetch';
  start(prefix: string, endpoints: Endpoints, options: CallsServeOptions): Promise<Served>;
}

const CODECS: readonly Codec[] = [json, msgpack, cbor];
const MiB = 1024 * 1024;
const GENERATED_ID = /^[0-9a-f]{12}-[0-9a-z]{1,11}$/;

let sequence = 0;
/** A fresh `x-request-id`, so that what the server recorded can be found by it. */
const nextId = () => `calls-${++sequence}`;

/**
 * `promise`, or a rejection naming `what` when it has not settled within `ms`. By default no
 * deadline: a loaded machine may take long, and mocha's timeout bounds the test.
 */
export async function within<T>(promise: Promise<T>, what: string, ms = Infinity): Promise<T> {
  if (ms === Infinity) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves to the signal's reason once it aborts. */
export function abortOf(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

/** A reply, with the `x-request-id` it was asked with ('' for none). */
export type Answer = Reply & { id: string };

/** Checks a problem document answer and returns the document. */
export function problemOf(reply: Reply, status: number): Record<string, unknown> {
  expect(reply.status, reply.text).to.equal(status);
  expect(reply.headers['content-type']).to.equal('application/problem+json');
  const doc = reply.json() as Record<string, unknown>;
  expect(doc).to.include({ type: 'about:blank', status });
  return doc;
}

/** A 500 that names the request but not what failed. */
export function expectHiddenFailure(reply: Answer): Record<string, unknown> {
  const doc = problemOf(reply, 500);
  expect(reply.text).not.to.include(SECRET);
  expect(doc.requestId).to.equal(reply.id);
  expect(reply.headers['x-request-id']).to.equal(reply.id);
  return doc;
}

/** The body of a reply read by `type` in `codec`. */
function decoded<T extends Type>(codec: Codec, type: T, reply: Reply) {
  expect(reply.headers['content-type']).to.equal(codec.contentTypes[0]);
  return codec.decode(type, new Uint8Array(reply.body));
}

/** A parsed answer from a {@link RawConnection}. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One connection written by hand, for what client libraries hide: `Expect: 100-continue`, a body
 * that stops halfway, a head larger than they allow.
 */
export class RawConnection {
  #buffer = '';
  #closed = false;
  #wake: () => void = () => {};

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      this.#buffer += data;
      this.#wake();
    });
    const closed = () => {
      this.#closed = true;
      this.#wake();
    };
    socket.on('close', closed).on('error', closed);
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text, 'latin1');
  }

  /** The next answer (an interim 100 Continue is one), once it has fully arrived. */
  next(what: string): Promise<RawAnswer> {
    const read = async () => {
      for (;;) {
        const answer = this.#take();
        if (answer !== undefined) return answer;
        if (this.#closed)
          throw new Error(`the connection closed before ${what}; it received: ${this.#buffer.slice(0, 200)}`);
        await new Promise<void>((wake) => (this.#wake = wake));
      }
    };
    return within(read(), what);
  }

  close(): void {
    this.socket.destroy();
  }

  #take(): RawAnswer | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine, ...lines] = this.#buffer.slice(0, end).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = status < 200 || status === 204 ? 0 : Number(headers['content-length'] ?? 0);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = this.#buffer.slice(end + 4, end + 4 + length);
    this.#buffer = this.#buffer.slice(end + 4 + length);
    return { status, headers, body };
  }
}

/** Writes `text` on a fresh connection to `url`'s server and reads one answer. */
async function rawAnswer(url: string, text: string, what: string): Promise<RawAnswer> {
  const connection = await RawConnection.open(url);
  try {
    connection.write(text);
    return await connection.next(what);
  } finally {
    connection.close();
  }
}

/** One turn of the event loop: what a settled promise schedules has run by then. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** How a scheme's credential travels, and its `WWW-Authenticate` challenges. */
interface SchemeCase {
  present(credential: string): { headers?: Record<string, string>; query?: string };
  /** The challenge when no credential was sent. */
  challenge: string;
  /** The challenge when one was sent but refused. */
  refused: string;
}

const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;

const SCHEMES: Readonly<Record<string, SchemeCase>> = {
  bearer: {
    present: (c) => ({ headers: { authorization: `Bearer ${c}` } }),
    challenge: 'Bearer realm="api"',
    refused: 'Bearer realm="api", error="invalid_token"',
  },
  headerKey: {
    present: (c) => ({ headers: { 'x-api-key': c } }),
    challenge: 'ApiKey in="header", name="x-api-key"',
    refused: 'ApiKey in="header", name="x-api-key"',
  },
  queryKey: {
    present: (c) => ({ query: `?api_key=${encodeURIComponent(c)}` }),
    challenge: 'ApiKey in="query", name="api_key"',
    refused: 'ApiKey in="query", name="api_key"',
  },
  basic: {
    present: (c) => ({ headers: { authorization: basic('ada', c) } }),
    challenge: 'Basic realm="api", charset="UTF-8"',
    refused: 'Basic realm="api", charset="UTF-8"',
  },
};

const BEARER = (token: string) => ({ authorization: `Bearer ${token}` });

interface AskOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The `x-request-id` sent: a fresh one by default, none for `null`. */
  requestId?: string | null;
  /** The server asked: the main one by default. */
  base?: string;
}

/** Runs the suite against `transport`. */
export function callsConformance(transport: CallsTransport): void {
  const { registry, gate, recorder, vault, intercepted, args } = callsRegistry();
  let api = '';
  let timedApi = '';
  let proxiedApi = '';
  const running: Served[] = [];
  before(async () => {
    const serve = async (options: Omit<CallsServeOptions, 'maxBodyBytes'>) => {
      const served = await transport.start('/api', registry.endpoints, { maxBodyBytes: 4 * MiB, ...options });
      running.push(served);
      return `${served.url}/api`;
    };
    api = await serve({});
    timedApi = await serve({ handlerTimeoutMs: 200 });
    proxiedApi = await serve({ trustProxy: true });
  });
  after(() => Promise.all(running.map((s) => s.stop())));

  /** Sends one request (POST by default) with a fresh `x-request-id`. */
  const ask = async (path: string, options: AskOptions = {}): Promise<Answer> => {
    const id = options.requestId === undefined ? nextId() : options.requestId;
    const headers: Record<string, string> = { ...(id === null ? {} : { 'x-request-id': id }), ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    const sent: SendOptions = { method: options.method ?? 'POST', headers };
    if (options.body !== undefined) sent.body = options.body;
    const reply = await send(`${options.base ?? api}${path}`, sent);
    return Object.assign(reply, { id: id ?? '' });
  };
  /** What `onError` was told about `reply`'s request: exactly one error, answered `status`. */
  const reportedError = (reply: Answer, status: number): Error => {
    const errors = recorder.errors(reply.id);
    expect(errors, 'onError calls').to.have.length(1);
    expect(errors[0]!.context).to.include({ requestId: reply.id, status });
    return errors[0]!.error as Error;
  };

  describe('security schemes', () => {
    for (const [scheme, how] of Object.entries(SCHEMES)) {
      describe(scheme, () => {
        const who = (credential: string | undefined, options: AskOptions = {}) => {
          const { headers = {}, query = '' } = credential === undefined ? {} : how.present(credential);
          return ask(`/${WHO[scheme]}${query}`, { ...options, headers: { ...headers, ...options.headers } });
        };

        for (const codec of CODECS) {
          it(`admits a good credential, and the method reads the caller with call.get (${codec.name})`, async () => {
            const reply = await who(CREDENTIAL.good, { headers: { accept: codec.contentTypes[0]! } });
            expect(reply.status, reply.text).to.equal(200);
            expect(decoded(codec, Caller, reply)).to.deep.equal({ name: 'ada', scheme });
            expect(gate.seen(reply.id)).to.deep.equal([{ scheme, credential: CREDENTIAL.good }]);
          });
        }
        it('answers a call without the credential 401 with the challenge and a problem document', async () => {
          const reply = await who(undefined);
          const doc = problemOf(reply, 401);
          expect(doc).to.include({ title: 'Unauthorized', detail: 'this call needs credentials' });
          expect(reply.headers['www-authenticate']).to.equal(how.challenge);
          expect(reply.headers['x-request-id']).to.equal(reply.id);
          expect(gate.seen(reply.id)).to.deep.equal([]);
          expect(recorder.errors(reply.id), 'onError calls').to.deep.equal([]);
        });
        it('answers a credential verify refuses 401', async () => {
          const reply = await who(CREDENTIAL.wrong);
          expect(problemOf(reply, 401).detail).to.equal('the credentials were refused');
          expect(reply.headers['www-authenticate']).to.equal(how.refused);
          expect(gate.seen(reply.id)).to.deep.equal([{ scheme, credential: CREDENTIAL.wrong }]);
        });
        it('answers 403 when verify throws HttpError(403)', async () => {
          const reply = await who(CREDENTIAL.forbidden);
          expect(problemOf(reply, 403).detail).to.equal('ada is suspended');
          expect(reply.headers['www-authenticate']).to.equal(undefined);
        });
        it('answers 500 with the request id but not the message when verify throws an Error, and tells onError', async () => {
          const reply = await who(CREDENTIAL.crash);
          expectHiddenFailure(reply);
          expect(reportedError(reply, 500).message).to.equal(SECRET);
          expect(recorder.errors(reply.id)[0]!.context.method).to.equal(WHO[scheme]);
        });
        it("answers 503 when verify never answers within handlerTimeoutMs, and aborts the call's signal", async () => {
          const reply = await who(CREDENTIAL.hang, { base: timedApi });
          const doc = problemOf(reply, 503);
          expect(doc.requestId).to.equal(reply.id);
          const signal = await within(gate.hanging.slot(reply.id).promise, 'verify being called');
          await within(abortOf(signal), 'the signal of the timed-out call aborting');
        });
      });
    }

    describe('several schemes on one method (bearer, then an API key)', () => {
      it('challenges with every scheme in one WWW-Authenticate when no credential is sent', async () => {
        const reply = await ask('/eitherWho');
        problemOf(reply, 401);
        expect(reply.headers['www-authenticate']).to.equal(
          `${SCHEMES.bearer!.challenge}, ${SCHEMES.headerKey!.challenge}`,
        );
      });
      it('admits through the second scheme when the first credential is absent', async () => {
        const reply = await ask('/eitherWho', { headers: { 'x-api-key': CREDENTIAL.good } });
        expect(reply.json()).to.deep.equal({ name: 'ada', scheme: 'headerKey' });
      });
      it('treats an Authorization header of another scheme as no bearer token', async () => {
        const reply = await ask('/eitherWho', {
          headers: { authorization: basic('ada', 'x'), 'x-api-key': CREDENTIAL.good },
        });
        expect(reply.json()).to.deep.equal({ name: 'ada', scheme: 'headerKey' });
      });
      it('does not fall through to the API key after a 403 from the bearer scheme', async () => {
        const reply = await ask('/eitherWho', {
          headers: { ...BEARER(CREDENTIAL.forbidden), 'x-api-key': CREDENTIAL.good },
        });
        problemOf(reply, 403);
        expect(gate.seen(reply.id)).to.deep.equal([{ scheme: 'bearer', credential: CREDENTIAL.forbidden }]);
      });
      it('does not fall through to the API key after a refused bearer token', async () => {
        const reply = await ask('/eitherWho', {
          headers: { ...BEARER(CREDENTIAL.wrong), 'x-api-key': CREDENTIAL.good },
        });
        problemOf(reply, 401);
        expect(reply.headers['www-authenticate']).to.equal(SCHEMES.bearer!.refused);
        expect(gate.seen(reply.id)).to.have.length(1);
      });
    });

    it('hands basic verify a UTF-8 password decoded', async () => {
      const utf8 = String.fromCharCode(...new TextEncoder().encode('ada:pässwörd'));
      const reply = await ask('/basicWho', { headers: { authorization: `Basic ${btoa(utf8)}` } });
      problemOf(reply, 401);
      expect(gate.seen(reply.id)).to.deep.equal([{ scheme: 'basic', credential: 'pässwörd' }]);
    });
    it('serves a method declared public (security: []) in a secured service without credentials', async () => {
      const reply = await ask('/ping');
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json()).to.equal('pong');
    });
  });

  describe('malformed credentials are refused 401 without calling verify', () => {
    /** Asks `path` with `headers`; expects a 401 with `challenge` and no verify. */
    const refused = async (path: string, headers: Record<string, string>, challenge: string) => {
      const reply = await ask(path, { headers });
      problemOf(reply, 401);
      expect(reply.headers['www-authenticate']).to.equal(challenge);
      expect(gate.seen(reply.id)).to.deep.equal([]);
      return reply;
    };
    const { refused: invalidToken, challenge: bearerChallenge } = SCHEMES.bearer!;
    const basicChallenge = SCHEMES.basic!.challenge;

    it('an Authorization header of another scheme counts as none', async () => {
      await refused('/bearerWho', { authorization: `Token ${CREDENTIAL.good}` }, bearerChallenge);
      await refused('/basicWho', { authorization: `Bearer ${CREDENTIAL.good}` }, basicChallenge);
    });
    it('an empty bearer token', async () => {
      await refused('/bearerWho', { authorization: 'Bearer ' }, invalidToken);
      await refused('/bearerWho', { authorization: 'Bearer' }, invalidToken);
    });
    it('a bearer token with characters a token cannot have', async () => {
      await refused('/bearerWho', { authorization: 'Bearer good"credential' }, invalidToken);
      await refused('/bearerWho', { authorization: 'Bearer good credential' }, invalidToken);
    });
    it('a bearer token longer than maxLength (9 KB)', async () => {
      await refused('/bearerWho', { authorization: `Bearer ${'a'.repeat(9 * 1024)}` }, invalidToken);
    });
    it(
      transport.kind === 'HttpServer'
        ? "a 100 KB bearer token: 431 from Node's 16 KiB header limit, and the server lives on"
        : 'a 100 KB bearer token: 401 invalid_token, and the server lives on',
      async () => {
        const authorization = `Bearer ${'a'.repeat(100 * 1024)}`;
        if (transport.kind === 'HttpServer') {
          const reply = await ask('/bearerWho', { headers: { authorization } });
          problemOf(reply, 431);
          expect(gate.seen(reply.id)).to.deep.equal([]);
        } else {
          await refused('/bearerWho', { authorization }, invalidToken);
        }
        expect((await ask('/bearerWho', { headers: BEARER(CREDENTIAL.good) })).status).to.equal(200);
      },
    );
    it('basic credentials that are not base64', async () => {
      await refused('/basicWho', { authorization: 'Basic !!not-base64!!' }, basicChallenge);
      await refused('/basicWho', { authorization: 'Basic YWRh' }, basicChallenge); // unpadded "ada"
    });
    it('basic credentials that are not UTF-8', async () => {
      await refused('/basicWho', { authorization: `Basic ${btoa('\xff\xfe:good-credential')}` }, basicChallenge);
    });
    it('basic credentials without a colon', async () => {
      await refused('/basicWho', { authorization: `Basic ${btoa('ada-good-credential')}` }, basicChallenge);
    });
    it('two Authorization headers, whichever holds the good token', async () => {
      for (const [first, second] of [
        [CREDENTIAL.good, CREDENTIAL.wrong],
        [CREDENTIAL.wrong, CREDENTIAL.good],
      ]) {
        const id = nextId();
        const answer = await rawAnswer(
          api,
          `POST /api/bearerWho HTTP/1.1\r\nhost: x\r\nx-request-id: ${id}\r\n` +
            `authorization: Bearer ${first}\r\nauthorization: Bearer ${second}\r\ncontent-length: 0\r\n\r\n`,
          'the answer to two Authorization headers',
        );
        expect(answer.status, `Bearer ${first}, then Bearer ${second}: ${answer.body}`).to.equal(401);
        expect(gate.seen(id)).to.deep.equal([]);
      }
    });
    it('an empty API key, in a header or the query', async () => {
      await refused('/headerKeyWho', { 'x-api-key': '' }, SCHEMES.headerKey!.challenge);
      await refused('/queryKeyWho?api_key=', {}, SCHEMES.queryKey!.challenge);
    });
  });

  describe('the body of a refused call is not read', () => {
    const MEBIBYTE_TEXT = JSON.stringify('x'.repeat(MiB - 2));

    it('refuses 1 MiB sent without credentials 401 without running the method; the same body with a good token is read', async () => {
      const before = vault.uploads;
      const refused = await ask('/upload', { body: MEBIBYTE_TEXT });
      problemOf(refused, 401);
      expect(vault.uploads).to.equal(before);
      expect((await within(recorder.report(refused.id), 'the report of the 401')).call.args).to.deep.equal([]);
      const admitted = await ask('/upload', { body: MEBIBYTE_TEXT, headers: BEARER(CREDENTIAL.good) });
      expect(admitted.status, admitted.text).to.equal(200);
      expect(admitted.json()).to.equal(MiB - 2);
      expect(vault.uploads).to.equal(before + 1);
    });
    it('answers 401 while the body is still on its way', async () => {
      const answer = await rawAnswer(
        api,
        `POST /api/upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
          `content-length: ${MiB}\r\n\r\n"${'x'.repeat(1024)}`,
        'a 401 before the rest of the body (the server waited for it)',
      );
      expect(answer.status).to.equal(401);
      expect(answer.headers['www-authenticate']).to.equal(SCHEMES.bearer!.challenge);
    });
    if (transport.kind === 'HttpServer') {
      const expecting = (headers: string) =>
        `POST /api/upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${MiB}\r\nexpect: 100-continue\r\n${headers}\r\n`;
      it('answers Expect: 100-continue without credentials 401, never 100 Continue', async () => {
        const answer = await rawAnswer(api, expecting(''), 'the answer to a 100-continue request');
        expect(answer.status).to.equal(401);
        expect(answer.headers.connection).to.equal('close');
      });
      it('answers Expect: 100-continue with a good token 100 Continue, then reads the body', async () => {
        const connection = await RawConnection.open(api);
        try {
          connection.write(expecting(`authorization: Bearer ${CREDENTIAL.good}\r\n`));
          expect((await connection.next('100 Continue')).status).to.equal(100);
          connection.write(MEBIBYTE_TEXT);
          const answer = await connection.next('the answer to the upload');
          expect(answer.status).to.equal(200);
          expect(answer.body).to.equal(String(MiB - 2));
        } finally {
          connection.close();
        }
      });
    }
  });

  describe('statuses and headers the call sets', () => {
    const bearer = { headers: BEARER(CREDENTIAL.good) };
    for (const codec of CODECS) {
      it(`answers a method declared { status: 201 } 201 with the Location it set (${codec.name})`, async () => {
        const reply = await ask('/createNote', {
          body: codec.encode(t.string(), 'hello'),
          headers: { ...bearer.headers, 'content-type': codec.contentTypes[0]!, accept: codec.contentTypes[0]! },
        });
        expect(reply.status, reply.text).to.equal(201);
        const note = decoded(codec, Note, reply);
        expect(note.text).to.equal('hello by ada');
        expect(reply.headers.location).to.equal(`/notes/${note.id}`);
      });
      it(`answers 202 when call.status(202) says so, and the declared 200 otherwise (${codec.name})`, async () => {
        const submit = (urgent: boolean) =>
          ask('/submitJob', {
            body: codec.encode(t.bool(), urgent),
            headers: { 'content-type': codec.contentTypes[0]! },
          });
        const queued = await submit(false);
        expect(queued.status, queued.text).to.equal(202);
        expect(decoded(codec, t.string(), queued)).to.equal('queued');
        const done = await submit(true);
        expect(done.status).to.equal(200);
        expect(decoded(codec, t.string(), done)).to.equal('done');
      });
    }
    it('answers a t.void() method declared { status: 201 } 201 with an empty body', async () => {
      const reply = await ask('/createMarker');
      expect(reply.status).to.equal(201);
      expect(reply.body.length).to.equal(0);
      expect(reply.headers['content-length']).to.equal('0');
      expect(reply.headers['content-type']).to.equal(undefined);
    });
    it('writes two Set-Cookie headers as two lines', async () => {
      const reply = await ask('/login');
      expect(reply.status).to.equal(204);
      expect(reply.headers['set-cookie']).to.deep.equal(['session=s1; Path=/; HttpOnly', 'theme=dark; Path=/']);
    });
    it('answers 500 for call.status(302), and tells onError the mistake', async () => {
      const reply = await ask('/redirect');
      expectHiddenFailure(reply);
      expect(reply.text).not.to.include('elsewhere');
      expect(reply.headers.location).to.equal(undefined);
      expect(reportedError(reply, 500).message).to.include('call.status(302)').and.include('2xx');
    });
    it('answers 500 for a header value with CR LF, and injects nothing', async () => {
      const reply = await ask('/injectHeader');
      expectHiddenFailure(reply);
      expect(reply.headers['x-injected']).to.equal(undefined);
      expect(reply.headers['x-note']).to.equal(undefined);
      expect(reportedError(reply, 500).message).to.include('x-note');
    });
    it("answers 500 for a method setting x-request-id, which stays the request's own", async () => {
      const reply = await ask('/forgeRequestId');
      expectHiddenFailure(reply);
      expect(reportedError(reply, 500).message).to.include('x-request-id');
    });
    it('answers 500 for call.get of a key nothing was stored under (a public method reading the caller)', async () => {
      const reply = await ask('/readCaller');
      expectHiddenFailure(reply);
      expect(reportedError(reply, 500)).to.be.instanceOf(TypeError).with.property('message').that.includes('caller');
    });
  });

  describe('interceptors', () => {
    for (const codec of CODECS) {
      it(`wrap the method: the registry's outermost in order, then the service's (${codec.name})`, async () => {
        const reply = await ask('/trace', { headers: { accept: codec.contentTypes[0]! } });
        expect(reply.status, reply.text).to.equal(200);
        expect(decoded(codec, t.array(t.string()), reply)).to.deep.equal([
          'registry 1 in',
          'registry 2 in',
          'service 1 in',
          'service 2 in',
          'method',
          'service 2 out',
          'service 1 out',
          'registry 2 out',
          'registry 1 out',
        ]);
      });
      it(`see call.args decoded before the method runs (${codec.name})`, async () => {
        const id = nextId();
        const client = createClient(InspectedApi, { baseUrl: api, codec, headers: { 'x-request-id': id } });
        const note = { id: 2n ** 64n - 1n, text: 'ab' };
        expect(await client.label(note, 3)).to.equal('ababab');
        expect(args.seen.get(id)).to.deep.equal([note, 3]);
      });
    }
    it('may replace the result', async () => {
      const { service } = intercepted.replaced;
      const runs = service.runs;
      const reply = await ask('/replaced');
      expect(reply.json()).to.equal('from the interceptor');
      expect(service.runs).to.equal(runs + 1);
    });
    it('may refuse with an HttpError: its status and headers, the method not run', async () => {
      const { service } = intercepted.throttled;
      const reply = await ask('/throttled');
      expect(problemOf(reply, 429).detail).to.equal('slow down');
      expect(reply.headers['retry-after']).to.equal('7');
      expect(service.runs).to.equal(0);
    });
    it('throwing an Error is a 500 that hides it', async () => {
      const reply = await ask('/broken');
      expectHiddenFailure(reply);
      expect(reportedError(reply, 500).message).to.equal(SECRET);
      expect(intercepted.broken.service.runs).to.equal(0);
    });
    for (const name of ['twice', 'twiceQuietly'] as const) {
      it(`calling next() twice is a 500 naming the mistake, the method run once (${name === 'twice' ? 'returning the second' : 'swallowing its rejection'})`, async () => {
        const { service } = intercepted[name];
        const runs = service.runs;
        const reply = await ask(`/${name}`);
        expectHiddenFailure(reply);
        expect(service.runs).to.equal(runs + 1);
        expect(reportedError(reply, 500).message).to.include('next() twice');
      });
    }
  });

  describe('onResponse', () => {
    const note = JSON.stringify({ id: 1, text: 'a' });
    /** What to send, and what `report.error` holds: the cause of a failure, nothing for a refusal without one. */
    const cases: [string, number, () => Promise<Answer>, ((error: unknown) => void) | undefined][] = [
      ['a success', 200, () => ask('/ping'), undefined],
      [
        'a call without credentials',
        401,
        () => ask('/bearerWho'),
        (error) => expect(error).to.be.instanceOf(HttpError).with.property('status', 401),
      ],
      [
        'a caller verify forbids',
        403,
        () => ask('/bearerWho', { headers: BEARER(CREDENTIAL.forbidden) }),
        (error) => expect(error).to.be.instanceOf(HttpError).with.property('status', 403),
      ],
      [
        'a body it cannot read',
        415,
        () => ask('/echoNote', { body: 'a', headers: { 'content-type': 'text/plain' } }),
        undefined,
      ],
      [
        'a body that does not fit',
        400,
        () => ask('/echoNote', { body: '{"id": 1, "text": 5}' }),
        (error) => expect(error).to.be.instanceOf(ReadError).with.property('path', '/text'),
      ],
      [
        'an answer nothing acceptable can carry',
        406,
        () => ask('/echoNote', { body: note, headers: { accept: 'text/html' } }),
        undefined,
      ],
      [
        'a method that throws',
        500,
        () => ask('/crash'),
        (error) => expect(error).to.be.instanceOf(Error).with.property('message', SECRET),
      ],
    ];
    for (const [what, status, call, checkError] of cases) {
      it(`is told of ${what} (${status}) with the status, the duration and the call of its x-request-id`, async () => {
        const reply = await call();
        expect(reply.status, reply.text).to.equal(status);
        const report = await within(recorder.report(reply.id), `onResponse for the ${status}`);
        expect(report.status).to.equal(status);
        expect(report.durationMs).to.be.a('number').that.is.at.least(0);
        expect(report.call.requestId).to.equal(reply.headers['x-request-id']).and.equal(reply.id);
        if (checkError === undefined) expect(report).not.to.have.property('error');
        else checkError(report.error);
      });
    }
    it('is told of a declared body over the limit (413), unread', async () => {
      const id = nextId();
      const answer = await rawAnswer(
        api,
        `POST /api/upload HTTP/1.1\r\nhost: x\r\nx-request-id: ${id}\r\n` +
          `authorization: Bearer ${CREDENTIAL.good}\r\ncontent-type: application/json\r\ncontent-length: ${5 * MiB}\r\n\r\n`,
        'a 413',
      );
      expect(answer.status).to.equal(413);
      const report = await within(recorder.report(id), 'onResponse for the 413');
      expect(report.status).to.equal(413);
      expect(report.call.requestId).to.equal(answer.headers['x-request-id']).and.equal(id);
    });
    it('is told once, as 503, of a call that answers after the handler timeout answered for it', async () => {
      const reply = await ask('/outlive', { base: timedApi });
      problemOf(reply, 503);
      const report = await within(recorder.report(reply.id), 'onResponse for the late answer');
      expect(report.status).to.equal(503);
      await turn();
      expect(recorder.reportCount(reply.id)).to.equal(1);
    });
  });

  describe("the call's signal", () => {
    it('aborts when the client disconnects before the answer', async () => {
      const id = nextId();
      const pending = request(`${api}/waitForAbort`, { method: 'POST', agent: false, headers: { 'x-request-id': id } });
      pending.on('error', () => {}); // destroyed on purpose below
      pending.end();
      const call = await within(recorder.call(id), 'the method starting');
      expect(call.signal.aborted).to.equal(false);
      pending.destroy();
      const reason = await within(abortOf(call.signal), 'call.signal aborting after the client disconnected');
      expect(reason).to.have.property('name', 'AbortError');
      // The method then fails with the reason; its answer goes nowhere, but is reported once.
      expect((await within(recorder.report(id), 'onResponse for the abandoned call')).status).to.equal(500);
      await turn();
      expect(recorder.reportCount(id)).to.equal(1);
    });
    it('does not abort once the answer is written', async () => {
      const reply = await ask('/whereFrom');
      expect(reply.status).to.equal(200);
      const call = await within(recorder.call(reply.id), 'the method keeping its call');
      expect(call.signal.aborted).to.equal(false);
    });
  });

  describe('request ids', () => {
    const idOf = async (sent: string | null, path = '/ping') =>
      (await ask(path, { requestId: sent })).headers['x-request-id'];
    it('echoes an x-request-id of 1-128 visible ASCII characters', async () => {
      expect(await idOf('req-42_a.B~!#$')).to.equal('req-42_a.B~!#$');
      expect(await idOf('x')).to.equal('x');
      expect(await idOf('x'.repeat(128))).to.equal('x'.repeat(128));
    });
    it('generates one when the request has none, or one that is not acceptable', async () => {
      const unacceptable = [null, 'two words', 'x'.repeat(129), 'x'.repeat(10 * 1024), 'café-1'];
      const ids = await Promise.all(unacceptable.map((sent) => idOf(sent)));
      for (const [i, id] of ids.entries()) expect(id, String(unacceptable[i]).slice(0, 20)).to.match(GENERATED_ID);
      expect(new Set(ids).size).to.equal(ids.length);
    });
    it('puts the id in 5xx problem documents, sent or generated', async () => {
      expectHiddenFailure(await ask('/crash'));
      const generated = await ask('/crash', { requestId: null });
      expect(problemOf(generated, 500).requestId).to.equal(generated.headers['x-request-id']).and.match(GENERATED_ID);
    });
    if (transport.kind === 'HttpServer') {
      it('carries a generated one on the 431 Node answers to a head over 16 KiB', async () => {
        const reply = await ask('/ping', { headers: { 'x-padding': 'x'.repeat(20 * 1024) } });
        problemOf(reply, 431);
        expect(reply.headers['x-request-id']).to.match(GENERATED_ID);
      });
    }
    it('carries it on answers without an endpoint (404, 405) too', async () => {
      const missing = await ask('/nothingHere');
      problemOf(missing, 404);
      expect(missing.headers['x-request-id']).to.equal(missing.id);
      const wrongVerb = await ask('/ping', { method: 'DELETE' });
      problemOf(wrongVerb, 405);
      expect(wrongVerb.headers['x-request-id']).to.equal(wrongVerb.id);
      expect(await idOf(null, '/nothingHere')).to.match(GENERATED_ID);
    });
  });

  describe('the typed client', () => {
    for (const codec of CODECS) {
      it(`sends a bearer token from static headers and decodes a 201 answer (${codec.name})`, async () => {
        const client = createClient(NotesApi, { baseUrl: api, codec, headers: BEARER(CREDENTIAL.good) });
        const note = await client.createNote('static');
        expect(note.text).to.equal('static by ada');
        expect(note.id).to.be.a('bigint');
      });
      it(`asks a headers function at every call (${codec.name})`, async () => {
        let asked = 0;
        const headers = async () => {
          asked++;
          return BEARER(CREDENTIAL.good);
        };
        const client = createClient(NotesApi, { baseUrl: api, codec, headers });
        const first = await client.createNote('one');
        const second = await client.createNote('two');
        expect(asked).to.equal(2);
        expect(second.id).to.equal(first.id + 1n);
      });
      it(`rejects with HttpError 401 for a wrong token (${codec.name})`, async () => {
        const client = createClient(NotesApi, { baseUrl: api, codec, headers: () => BEARER(CREDENTIAL.wrong) });
        const error = await client.createNote('x').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(HttpError).and.include({ status: 401, detail: 'the credentials were refused' });
      });
    }
  });

  describe('platform and address', () => {
    /** Asks `path`, and tells from which local port: the runtime sees it as the peer's. */
    const askFromPort = (path: string) =>
      new Promise<{ id: string; port: number }>((resolve, reject) => {
        const id = nextId();
        let port = 0;
        const req = request(
          `${api}${path}`,
          { method: 'POST', agent: false, headers: { 'x-request-id': id } },
          (res) => {
            res.resume().on('end', () => resolve({ id, port }));
          },
        );
        req.on('socket', (socket) => socket.on('connect', () => (port = socket.localPort!)));
        req.on('error', reject).end();
      });
    it(
      transport.kind === 'fetch'
        ? 'call.platform holds the arguments the runtime passed after the request'
        : 'call.platform holds the IncomingMessage',
      async () => {
        const { id, port } = await askFromPort('/whereFrom');
        const { platform } = await within(recorder.call(id), 'the method keeping its call');
        if (transport.kind === 'fetch') {
          const info: ConnInfo = { remoteAddr: { hostname: '127.0.0.1', port } };
          expect(platform).to.deep.equal([info, WORKER_ENV]);
          expect(platform[1]).to.equal(WORKER_ENV);
        } else {
          expect(platform).to.have.length(1);
          const req = platform[0] as IncomingMessage;
          expect(req).to.be.instanceOf(IncomingMessage);
          expect(req.headers['x-request-id']).to.equal(id);
          expect(req.socket.remotePort).to.equal(port);
        }
      },
    );
    it("call.ip is the peer's address, X-Forwarded-For ignored without trustProxy", async () => {
      expect((await ask('/whereFrom')).json()).to.equal('127.0.0.1');
      expect((await ask('/whereFrom', { headers: { 'x-forwarded-for': '203.0.113.7' } })).json()).to.equal('127.0.0.1');
    });
    it('call.ip is the first X-Forwarded-For entry with trustProxy: true', async () => {
      const reply = await ask('/whereFrom', {
        base: proxiedApi,
        headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' },
      });
      expect(reply.json()).to.equal('203.0.113.7');
    });
  });
}
