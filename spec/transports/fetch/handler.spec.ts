import { expect } from 'chai';
import { cbor } from '../../../codecs/cbor/index.ts';
import { HttpError, Registry } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { FaultyApi, FaultyService, VerbService } from '../../support/services.ts';

/** An upload that never ends, counting what was pulled from it and whether it was cancelled. */
function endless(chunkSize = 16 * 1024) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(`http://in-process${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    duplex: 'half',
  } as RequestInit);

describe('transports/fetch toFetchHandler', () => {
  const registry = new Registry({ onError: () => {} }).on(new VerbService()).on(new FaultyService());
  const handle = toFetchHandler('/api', registry.endpoints, { maxBodyBytes: 64 * 1024 });

  it('answers Request objects in process, no server involved', async () => {
    const response = await handle(new Request('http://in-process/api/getItems'));
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json');
    expect(response.headers.get('content-length')).to.equal('10');
    expect(await response.text()).to.equal('"getItems"');
  });

  it('answers HEAD with Content-Length and no body', async () => {
    const response = await handle(new Request('http://in-process/api/getItems', { method: 'HEAD' }));
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-length')).to.equal('10');
    expect(response.body).to.equal(null);
  });

  it('stops reading an endless upload once it crosses maxBodyBytes, and cancels it', async () => {
    const { stream, state } = endless();
    const response = await handle(post('/api/echo', stream));
    expect(response.status).to.equal(413);
    expect(response.headers.get('content-type')).to.equal('application/problem+json');
    expect(state.pulled).to.be.at.most(64 * 1024 + 3 * 16 * 1024);
    expect(state.cancelled).to.equal(true);
  });

  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const { stream, state } = endless();
    const response = await handle(post('/api/echo', stream, { 'content-length': String(10 * 1024 * 1024) }));
    expect(response.status).to.equal(413);
    expect(state.pulled).to.be.at.most(2 * 16 * 1024);
    expect(state.cancelled).to.equal(true);
  });

  it('answers 400 when the body stream fails', async () => {
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const response = await handle(post('/api/echo', broken));
    expect(response.status).to.equal(400);
    expect(await response.json()).to.include({ detail: 'the request body could not be read' });
  });

  describe('agrees with HttpServer', () => {
    /** A Request whose `url` is the target as sent, as a runtime that does not normalise it hands over. */
    class RawRequest extends Request {
      readonly #raw: string;
      constructor(raw: string, init?: RequestInit) {
        super(raw, init);
        this.#raw = raw;
      }
      override get url(): string {
        return this.#raw;
      }
    }

    for (const path of ['/api/x/%2e%2e/getItems', '/api/x/%2E%2e/getItems', '/api/x/../getItems', '/api/./getItems']) {
      it(`answers a dot segment in the target as sent with 400: ${path}`, async () => {
        const response = await handle(new RawRequest(`http://in-process${path}`));
        expect(response.status).to.equal(400);
        expect(await response.json()).to.include({ status: 400, detail: 'the path holds a dot segment' });
      });
    }

    it('reads the path and query of request.url as given', async () => {
      const response = await handle(new RawRequest('http://in-process:8080/api/getItems?x=%2e%2e#frag'));
      expect(response.status).to.equal(200);
    });

    it('answers 400 to a body stream of strings (chunks must be bytes)', async () => {
      const strings = new ReadableStream<string>({
        start(controller) {
          controller.enqueue('{"id": 1, "name": "a", "weight": 1}');
          controller.close();
        },
      });
      const response = await handle(post('/api/echo', strings as unknown as ReadableStream<Uint8Array>));
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ detail: 'the request body could not be read' });
    });

    for (const [label, path, headers, status] of [
      ['a declared Content-Length over the limit', '/api/echo', { 'content-length': String(10 * 1024 * 1024) }, 413],
      ['a request without a route', '/api/nope', {}, 404],
    ] as const) {
      it(`does not wait for a body whose cancel() never settles: ${label}`, async () => {
        const stuck = new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(new Uint8Array(1024));
          },
          cancel: () => new Promise<void>(() => {}),
        });
        // A handler that waited on cancel() would never answer: mocha's timeout fails the test then.
        const response = await handle(post(path, stuck, headers));
        expect(response).to.be.instanceOf(Response);
        expect(response.status).to.equal(status);
      });
    }
  });

  it('never rejects: a failing endpoint table is a 500 problem', async () => {
    const faulty = toFetchHandler('/x', {
      routes: new Map([['/boom', new Map([['GET', () => Promise.reject(new Error('boom'))]])]]),
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const response = await faulty(new Request('http://in-process/x/boom'));
      expect(response.status).to.equal(500);
      expect(await response.text()).not.to.include('boom');
    } finally {
      console.error = original;
    }
    expect(errors).to.have.length(1);
  });

  it('checks its options', () => {
    expect(() => toFetchHandler('/api', registry.endpoints, { maxBodyBytes: -1 })).to.throw(RangeError, /maxBodyBytes/);
    expect(() => toFetchHandler('api', registry.endpoints)).to.throw(TypeError, /must start with \//);
  });

  it('serves as the fetch of a client: typed calls with no network at all', async () => {
    const api = createClient(FaultyApi, { baseUrl: 'http://in-process/api', codec: cbor, fetch: handle });
    expect(await api.echo({ id: 2n ** 64n - 1n, name: 'Ada', weight: 0.5 })).to.deep.equal({
      id: 2n ** 64n - 1n,
      name: 'Ada',
      weight: 0.5,
    });
    const error = await api.unavailable().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HttpError).and.include({ status: 503, detail: 'down for maintenance' });
  });
});
