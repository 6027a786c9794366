// The fetch handler in the runtimes it is written for. The same vectors (./vectors.ts: a request in,
// exact status, headers and decoded body out) are asked of the app of ./app.ts:
// - in Node, in process (the handler called with a Request): this proves the vectors themselves;
// - in Bun (`Bun.serve`), Deno (`Deno.serve`) and workerd (the Worker bundled by esbuild, served
//   with a generated capnp config), each a child process on a port the system chose, over HTTP.
// workerd also serves examples/workers (its wrangler.toml's `main` and `compatibility_date`), and
// must write no "bug in lacquer": it refuses `new Function` during requests, and lacquer compiles
// at registration and falls back to closures silently.
//
// The binaries come from npm: the devDependencies bun, deno and workerd install the build for this
// machine (spec/support/runtime-binaries.ts finds it). A missing one fails its runtime's `before all`
// hook with what to install; nothing is skipped.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as zlib from 'node:zlib';
import { onGeneratedCodeError, type GeneratedCodeError } from '../../index.ts';
import { sendInProcess, sendOverHttp, type Received } from '../support/runtime-client.ts';
import { ROOT, requireBinary } from '../support/runtime-binaries.ts';
import {
  bundleWorker,
  readWranglerToml,
  startBun,
  startDeno,
  startWorkerd,
  workerdConfig,
  type RuntimeServer,
} from '../support/runtime-servers.ts';
import { makeApp } from './app.ts';
import {
  SECRET,
  VECTORS,
  decodeBody,
  expectedIn,
  type AnswerCoding,
  type Expected,
  type ExpectedBody,
  type RuntimeKind,
  type VectorRequest,
} from './vectors.ts';

/** What the runtime's HTTP layer adds on the wire; the vectors do not list them. */
/** The media types of streams. */
const STREAM_TYPES = new Set([
  'application/jsonl',
  'text/event-stream',
  'application/cbor-seq',
  'application/msgpack-seq',
]);
/** Headers of the connection and of HTTP/1.1's framing, which runtimes set as they like. */
const WIRE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
/** What lacquer prints when generated code fails where the closure path answers: a bug. */
const BUG_REPORT = 'bug in lacquer';
const SPEC_DIR = join(ROOT, 'spec/runtimes');
const WRANGLER_TOML = join(ROOT, 'examples/workers/wrangler.toml');

/** An answer, readably, for failure messages. */
function shown(r: Received): string {
  const text = new TextDecoder().decode(r.body);
  // Text unless it holds control characters or bytes that are not UTF-8: then hex.
  const body = /[\x00-\x08\x0e-\x1f\ufffd]/.test(text) ? Buffer.from(r.body).toString('hex') : text;
  return `${r.status}\n${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n${r.setCookie.map((c) => `set-cookie: ${c}`).join('\n')}\n\n${body}`;
}

/** The members of a `Vary` value. */
const members = (vary: string) =>
  vary
    .split(',')
    .map((m) => m.trim().toLowerCase())
    .filter((m) => m !== '');

/** Checks `received` against `expected`: status, the exact set of headers and their values, the body. */
function check(received: Received, expected: Expected, request: VectorRequest): void {
  const what = `${request.method} ${request.path} answered:\n${shown(received)}\n`;
  expect(received.status, what).to.equal(expected.status);
  // A stream's length is the runtime's to tell or not: Bun counts a stream that ended before it answered.
  const streamed = STREAM_TYPES.has(String(expected.headers['content-type']));
  const names = Object.keys(received.headers)
    .filter((n) => !WIRE_HEADERS.has(n) && !(streamed && n === 'content-length'))
    .sort();
  expect(names, `${what}header names`).to.deep.equal(Object.keys(expected.headers).sort());
  for (const [name, want] of Object.entries(expected.headers)) {
    const got = received.headers[name]!;
    if (name === 'vary' && typeof want === 'string')
      expect(new Set(members(got)), `${what}vary`).to.deep.equal(new Set(members(want)));
    else if (typeof want === 'string') expect(got, `${what}${name}`).to.equal(want);
    else expect(got, `${what}${name}`).to.match(new RegExp(`^(?:${want.source})$`));
  }
  expect(received.setCookie, `${what}set-cookie`).to.deep.equal(expected.setCookie ?? []);
  const length = received.headers['content-length'];
  if (length !== undefined && request.method !== 'HEAD')
    expect(Number(length), `${what}content-length`).to.equal(received.body.byteLength);
  // A compressed answer is compressed whole: its length is known, and is that of the bytes sent.
  if ('encoded' in expected.body)
    expect(length, `${what}content-length of the compressed bytes`).to.equal(String(received.body.byteLength));
  checkBody(received.body, expected.body, what);
}

/** Checks a JSON value against `want`, where a RegExp stands for a string matching it whole, at any depth. */
function expectMatch(actual: unknown, want: unknown, what: string): void {
  if (want instanceof RegExp)
    expect(actual, what)
      .to.be.a('string')
      .and.match(new RegExp(`^(?:${want.source})$`));
  else if (typeof want === 'object' && want !== null) {
    expect(actual, what).to.be.an(Array.isArray(want) ? 'array' : 'object');
    expect(Object.keys(actual as object), `${what} members`).to.deep.equal(Object.keys(want));
    for (const [key, inner] of Object.entries(want))
      expectMatch((actual as Record<string, unknown>)[key], inner, `${what}/${key}`);
  } else expect(actual, what).to.equal(want);
}

/** Checks `bytes`, a body as received (or as inflated), against `body`. */
function checkBody(bytes: Uint8Array, body: ExpectedBody, what: string): void {
  if ('empty' in body) expect(bytes.byteLength, `${what}no body`).to.equal(0);
  else if ('text' in body) expect(new TextDecoder().decode(bytes), what).to.equal(body.text);
  else if ('json' in body) {
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    expect(Object.keys(doc), `${what}members`).to.deep.equal(Object.keys(body.json));
    for (const [key, want] of Object.entries(body.json)) expectMatch(doc[key], want, `${what}${key}`);
  } else if ('msgpack' in body) expect(decodeBody('msgpack', bytes), what).to.deep.equal(body.msgpack);
  else if ('cbor' in body) expect(decodeBody('cbor', bytes), what).to.deep.equal(body.cbor);
  else {
    const inflated = inflateAnswer(body.encoded, bytes);
    expect(
      bytes.byteLength,
      `${what}fewer bytes in ${body.encoded} (${bytes.byteLength}) than inflated (${inflated.byteLength})`,
    ).to.be.below(inflated.byteLength);
    checkBody(
      inflated,
      body.inflated,
      `${what}inflated from ${body.encoded}:\n${new TextDecoder().decode(inflated).slice(0, 2000)}\n`,
    );
  }
  expect(Buffer.from(bytes).toString('latin1'), `${what}leaks the error`).not.to.include(SECRET);
}

/**
 * Inflates an answer body with node:zlib. zstd (Bun's CompressionStream makes it) is in node:zlib
 * from Node 22.15 only; on an older Node the Bun this spec runs anyway inflates it
 * (`Bun.zstdDecompressSync`, libzstd).
 */
function inflateAnswer(coding: AnswerCoding, bytes: Uint8Array): Uint8Array {
  if (coding === 'gzip') return new Uint8Array(zlib.gunzipSync(bytes));
  if (coding === 'br') return new Uint8Array(zlib.brotliDecompressSync(bytes));
  const zstd = (zlib as { zstdDecompressSync?: (data: Uint8Array) => Buffer }).zstdDecompressSync;
  if (typeof zstd === 'function') return new Uint8Array(zstd(bytes));
  const run = spawnSync(
    requireBinary('bun'),
    ['-e', 'process.stdout.write(Bun.zstdDecompressSync(require("node:fs").readFileSync(0)))'],
    {
      input: bytes,
      timeout: 20_000,
      env: { ...process.env, DO_NOT_TRACK: '1', NO_COLOR: '1' },
    },
  );
  if (run.status !== 0)
    throw new Error(
      `bun could not inflate zstd (${run.error?.message ?? run.signal ?? run.status}): ${run.stderr.toString()}`,
    );
  return new Uint8Array(run.stdout);
}

/** Where a runtime's answers come from, and what it printed. */
interface Target {
  send(request: VectorRequest): Promise<Received>;
  output(): string;
  stop(): void | Promise<void>;
}

/**
 * The vectors, one test each, against the target `start` gives; then `more` (suites of its own);
 * then the check of what the target printed meanwhile.
 */
function runtimeSuite(runtime: RuntimeKind, label: string, start: () => Promise<Target>, more?: () => void): void {
  describe(label, () => {
    let target: Target | undefined;
    before(async function () {
      this.timeout(120_000);
      target = await start();
    });
    after(() => target?.stop());
    const current = () => target!;

    for (const vector of VECTORS) {
      it(vector.name, async () => {
        check(await current().send(vector.request), expectedIn(vector, runtime), vector.request);
      });
    }

    more?.();

    // A suite of its own, so that it runs after every request above, nested suites' included.
    describe('its output, once every request was answered', () => {
      it(`logs a method's failure with its request id, and never "${BUG_REPORT}"`, () => {
        const output = current().output();
        // The output is really collected: the 500 vector's failure is in it (onError's default log).
        expect(output).to.include('lacquer: Samples.crash failed (500, request problem-500)');
        expect(output, output).not.to.include(BUG_REPORT);
        expect(output, output).not.to.include('Uncaught');
      });
    });
  });
}

describe('runtimes: the client the vectors are sent with', () => {
  // The compression vectors hold only if the client adds no Accept-Encoding of its own and hands
  // back the bytes as they came: an automatic `Accept-Encoding: gzip, deflate` would change every
  // answer, an automatic inflation would hide the coding.
  const GZIPPED = new Uint8Array(zlib.gzipSync('{"hello":"world"}'));

  it('over HTTP: sends the headers given (with Host and Connection alone added), and returns a compressed body compressed', async () => {
    let head = '';
    const server = createServer((socket) => {
      socket.on('data', (data: Buffer) => {
        head += data.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.end(
          Buffer.concat([
            Buffer.from(
              `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${GZIPPED.byteLength}\r\n\r\n`,
            ),
            GZIPPED,
          ]),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const received = await sendOverHttp(`http://127.0.0.1:${port}`, {
        method: 'GET',
        path: '/x',
        headers: { 'x-request-id': 'client' },
      });
      const lines = head.split('\r\n\r\n')[0]!.split('\r\n');
      expect(lines[0]).to.equal('GET /x HTTP/1.1');
      expect(
        lines
          .slice(1)
          .map((line) => line.slice(0, line.indexOf(':')).toLowerCase())
          .sort(),
        head,
      ).to.deep.equal(['connection', 'host', 'x-request-id']);
      expect(received.headers['content-encoding']).to.equal('gzip');
      expect(received.body).to.deep.equal(GZIPPED);
    } finally {
      server.close();
    }
  });

  it("in process: the Request holds the headers given (with Content-Length for a body), and the Response's bytes come back as they are", async () => {
    let seen: string[] = [];
    const received = await sendInProcess(
      async (request) => {
        seen = [...request.headers.keys()];
        return new Response(GZIPPED, { headers: { 'content-encoding': 'gzip' } });
      },
      { method: 'POST', path: '/x', headers: { 'x-request-id': 'client' }, body: 'hi' },
    );
    expect(seen.sort()).to.deep.equal(['content-length', 'x-request-id']);
    expect(received.headers['content-encoding']).to.equal('gzip');
    expect(received.body).to.deep.equal(GZIPPED);
  });
});

describe('runtimes: the fetch handler in Node, Bun, Deno and workerd', function () {
  // Starting a runtime takes well under a second; the first start after an install, longer.
  this.timeout(30_000);
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'lacquer-runtimes-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const serve = (server: RuntimeServer, socket = 'main'): Target => ({
    send: (request) => sendOverHttp(server.urls[socket]!, request),
    output: () => server.output(),
    stop: () => server.stop(),
  });

  runtimeSuite('node', 'Node (in process)', async () => {
    // No child here: what a generated-code bug would print goes to onGeneratedCodeError, and the
    // method failure's log to console.error, both kept for the output check.
    const handle = makeApp();
    const printed: string[] = [];
    const reports: GeneratedCodeError[] = [];
    const previous = onGeneratedCodeError((problem) => reports.push(problem));
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    return {
      send: (request) => sendInProcess(handle, request),
      output: () => [...printed, ...reports.map((r) => `${r.sourceUrl}: ${BUG_REPORT}`)].join('\n'),
      stop: () => {
        onGeneratedCodeError(previous);
        console.error = consoleError;
      },
    };
  });

  runtimeSuite('bun', 'Bun (Bun.serve)', async () =>
    serve(await startBun(requireBinary('bun'), join(SPEC_DIR, 'bun-server.ts'), scratch)),
  );

  runtimeSuite('deno', 'Deno (Deno.serve)', async () =>
    serve(await startDeno(requireBinary('deno'), join(SPEC_DIR, 'deno-server.ts'), scratch, join(scratch, 'deno-dir'))),
  );

  let example: () => string = () => '';
  runtimeSuite(
    'workerd',
    'workerd (a Worker, bundled)',
    async () => {
      const workerd = requireBinary('workerd');
      // The example's wrangler.toml decides what the example Worker is and the date both run at.
      const wrangler = readWranglerToml(WRANGLER_TOML);
      await bundleWorker(join(SPEC_DIR, 'worker.ts'), join(scratch, 'vectors.js'));
      await bundleWorker(join(dirname(WRANGLER_TOML), wrangler.main), join(scratch, 'example.js'));
      const config = join(scratch, 'workerd.capnp');
      writeFileSync(
        config,
        workerdConfig([
          {
            name: 'vectors',
            module: 'vectors.js',
            compatibilityDate: wrangler.compatibilityDate,
            bindings: { STAGE: 'vectors' },
          },
          {
            name: 'example',
            module: 'example.js',
            compatibilityDate: wrangler.compatibilityDate,
            bindings: { LACQUER_DEMO_TOKEN: 'token-from-env' },
          },
        ]),
      );
      const server = await startWorkerd(workerd, config, ['vectors', 'example'], scratch);
      example = () => server.urls.example!;
      return serve(server, 'vectors');
    },
    () => {
      describe('examples/workers: wrangler.toml and worker.ts', () => {
        const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Uint8Array) =>
          sendOverHttp(example(), { method, path, headers, ...(body === undefined ? {} : { body }) });
        const text = (r: Received) => new TextDecoder().decode(r.body);

        it('names its entry and a compatibility date this workerd supports', () => {
          const wrangler = readWranglerToml(WRANGLER_TOML);
          expect(wrangler).to.deep.include({ name: 'lacquer-example', main: 'worker.ts' });
          expect(wrangler.compatibilityDate).to.match(/^\d{4}-\d{2}-\d{2}$/);
        });

        it('lists the books publicly', async () => {
          const r = await send('GET', '/api/books');
          expect(r.status, text(r)).to.equal(200);
          expect(r.headers['content-type']).to.equal('application/json');
          expect((JSON.parse(text(r)) as { title: string }[]).map((b) => b.title)).to.deep.equal([
            'Structure and Interpretation of Computer Programs',
            'The C Programming Language',
            'Programming Pearls',
          ]);
        });

        it('refuses writing without a token, and with the demo token that env replaced', async () => {
          const book = '{"book": {"id": 10, "title": "Dune", "author": "Herbert", "isbn": "0441013597", "year": 1965}}';
          const anonymous = await send('POST', '/api/books', { 'content-type': 'application/json' }, book);
          expect(anonymous.status).to.equal(401);
          expect(anonymous.headers['www-authenticate']).to.equal('Bearer realm="api"');
          const replaced = await send(
            'POST',
            '/api/books',
            { 'content-type': 'application/json', authorization: 'Bearer demo-token' },
            book,
          );
          expect(replaced.status).to.equal(401);
          const readOnly = await send(
            'POST',
            '/api/books',
            { 'content-type': 'application/json', authorization: 'Bearer read-only-token' },
            book,
          );
          expect(readOnly.status).to.equal(403);
          expect(JSON.parse(text(readOnly))).to.include({ detail: 'the read-only token may read but not write' });
        });

        it('creates a book with the token from env (201, Location), and serves it at the Location', async () => {
          const created = await send(
            'POST',
            '/api/books',
            { 'content-type': 'application/json', authorization: 'Bearer token-from-env' },
            '{"book": {"id": 11, "title": "Emma", "author": "Austen", "isbn": "0141439580", "year": 1815}}',
          );
          expect(created.status, text(created)).to.equal(201);
          expect(created.headers.location).to.equal('/api/books/11');
          const fetched = await send('GET', created.headers.location!);
          expect(fetched.status).to.equal(200);
          expect(text(fetched)).to.equal('{"id":11,"title":"Emma","author":"Austen","isbn":"0141439580","year":1815}');
          expect((await send('GET', '/api/books/99')).status).to.equal(404);
        });

        it('searches with the query string, and updates a book named by the path', async () => {
          const found = await send('GET', '/api/books/search?query=pearls&limit=5');
          expect(found.status, text(found)).to.equal(200);
          expect(JSON.parse(text(found))).to.deep.include({ total_count: 1, has_more: false });
          const updated = await send(
            'PUT',
            '/api/books/3',
            { 'content-type': 'application/json', authorization: 'Bearer token-from-env' },
            '{"update": {"title": "Programming Pearls (2nd ed.)", "author": "Bentley"}}',
          );
          expect(updated.status, text(updated)).to.equal(200);
          expect(JSON.parse(text(updated))).to.include({ id: 3, title: 'Programming Pearls (2nd ed.)', year: 1986 });
        });

        it('keeps a u64 exact in MessagePack', async () => {
          const auth = {
            authorization: 'Bearer token-from-env',
            'content-type': 'application/msgpack',
            accept: 'application/msgpack',
          };
          const id = 2n ** 64n - 2n;
          const created = await send(
            'POST',
            '/api/createUser',
            auth,
            msgpackEncode({ id, name: 'Grace', weight: 0.25 }, { useBigInt64: true }),
          );
          expect(created.status).to.equal(200);
          const found = await send('POST', '/api/getUserById', auth, msgpackEncode(id, { useBigInt64: true }));
          expect(found.headers['content-type']).to.equal('application/msgpack');
          expect(msgpackDecode(found.body, { useBigInt64: true })).to.deep.equal({ id, name: 'Grace', weight: 0.25 });
        });
      });
    },
  );
});
