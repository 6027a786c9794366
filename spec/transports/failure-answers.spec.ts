// Whatever a method throws or returns, the answer is a problem document carrying x-request-id (and,
// for a 5xx, `requestId`), and `onError` is told the status that was sent: a thrown Proxy, a result
// whose traps throw, an HttpError whose extensions are not strings or whose text is not well-formed.
import { expect } from 'chai';
import { decode as decodeCbor } from 'cbor-x';
import { decode as decodeMsgpack } from '@msgpack/msgpack';
import { HttpError, Registry, meta, method, service, t, type ErrorContext } from '../../index.ts';
import type { Served } from '../support/fetch-server.ts';
import { send } from '../support/http-client.ts';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { TRANSPORTS } from './both-transports.ts';

/** An object every operation on which throws, `instanceof` and property reads included. */
function hostile(): object {
  const trap = () => {
    throw new Error('a trap threw');
  };
  return new Proxy({}, new Proxy({}, { get: () => trap }));
}

const Point = t.object({ x: t.f64(), y: t.f64() }, { name: 'Point' });

class Hostile {
  throwsProxy(): string {
    throw hostile();
  }
  async rejectsProxy(): Promise<string> {
    throw hostile();
  }
  returnsProxy(): { x: number; y: number } {
    return hostile() as never;
  }
  async resolvesProxy(): Promise<{ x: number; y: number }> {
    return hostile() as never;
  }
  throwsBooleanExtension(): string {
    throw new HttpError(429, 'slow down', { extensions: { retry: true as unknown as string, hint: 'later' } });
  }
  throwsLoneSurrogate(): string {
    throw new HttpError(409, 'taken: \uD800', { extensions: { hint: 'x\uDC00y' }, title: 'Con\uD83Dflict' });
  }
  throws503LoneSurrogate(): string {
    throw new HttpError(503, 'down \uDFFF');
  }
}
meta(
  Hostile,
  service({
    throwsProxy: method([], t.string()),
    rejectsProxy: method([], t.string()),
    returnsProxy: method([], Point),
    resolvesProxy: method([], Point),
    throwsBooleanExtension: method([], t.string()),
    throwsLoneSurrogate: method([], t.string()),
    throws503LoneSurrogate: method([], t.string()),
  }),
);

const CASES: readonly [string, number][] = [
  ['throwsProxy', 500],
  ['rejectsProxy', 500],
  ['returnsProxy', 500],
  ['resolvesProxy', 500],
  ['throwsBooleanExtension', 429],
  ['throwsLoneSurrogate', 409],
  ['throws503LoneSurrogate', 503],
];
/** The answer's codec, and how to read the problem document in it. */
const ACCEPTS: readonly [string, (bytes: Buffer) => unknown][] = [
  ['json', (b) => JSON.parse(b.toString('utf8'))],
  ['msgpack', (b) => decodeMsgpack(b)],
  ['cbor', (b) => decodeCbor(b)],
];

for (const transport of TRANSPORTS) {
  describe(`transports: answers to what a method throws or returns (${transport.kind})`, () => {
    const told = new Map<string, ErrorContext[]>();
    let served: Served;
    let sequence = 0;
    before(async () => {
      const registry = new Registry({
        onError: (_error, context) => told.set(context.requestId, [...(told.get(context.requestId) ?? []), context]),
      }).on(new Hostile());
      served = await transport.serve('/api', registry.endpoints);
    });
    after(() => served.stop());

    for (const [name, status] of CASES) {
      for (const [format, decode] of ACCEPTS) {
        it(`answers ${name} ${status} with its request id, and tells onError ${status} (${format})`, async () => {
          const id = `failure-${++sequence}`;
          const accept = `application/problem+${format}`;
          const headers = { 'x-request-id': id, accept: `application/${format}, ${accept}` };
          const reply = await send(`${served.url}/api/${name}`, { method: 'POST', headers });
          expect(reply.status, reply.text).to.equal(status);
          expect(reply.headers['x-request-id']).to.equal(id);
          expect(reply.headers['content-type']).to.equal(accept);
          const doc = decode(reply.body) as Record<string, unknown>;
          expect(doc).to.include({ status });
          if (status >= 500) expect(doc.requestId).to.equal(id);
          expect(reply.text).not.to.include('a trap threw');
          expect(told.get(id)?.map((c) => c.status)).to.deep.equal([status]);
        });
      }
    }

    it('keeps what can be written of an HttpError: string extensions, text made well-formed', async () => {
      const booleans = await send(`${served.url}/api/throwsBooleanExtension`, { method: 'POST' });
      expect(booleans.json())
        .to.deep.include({ status: 429, detail: 'slow down', hint: 'later' })
        .and.not.have.property('retry');
      const surrogates = await send(`${served.url}/api/throwsLoneSurrogate`, { method: 'POST' });
      expect(surrogates.json()).to.deep.include({
        status: 409,
        detail: 'taken: \uFFFD',
        hint: 'x\uFFFDy',
        title: 'Con\uFFFDflict',
      });
    });
  });
}

describe('transports/fetch: a fault of the handler itself', () => {
  it('is a 500 carrying the request id, in x-request-id and the problem document', async () => {
    const faulty = toFetchHandler('/x', {
      routes: new Map([['/boom', new Map([['GET', () => Promise.reject(new Error('boom'))]])]]),
    });
    const original = console.error;
    console.error = () => {};
    try {
      const response = await faulty(
        new Request('http://in-process/x/boom', { headers: { 'x-request-id': 'fault-1' } }),
      );
      expect(response.status).to.equal(500);
      expect(response.headers.get('x-request-id')).to.equal('fault-1');
      expect(await response.json()).to.include({ status: 500, requestId: 'fault-1' });
    } finally {
      console.error = original;
    }
  });
});
