// The fetch handler's caps on what its calls hold at once, as HttpServer's: calls whose handler has
// not settled (those given up on at the handler timeout included) and the request bodies they hold
// or are reading; beyond either, 503 with Retry-After and the body not read.
import { expect } from 'chai';
import { Registry } from '../../../index.ts';
import { Gate } from '../../support/gate.ts';
import {
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  toFetchHandler,
  type FetchHandlerOptions,
} from '../../../transports/fetch/index.ts';
import * as http from '../../../transports/http/index.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

function handler(options: FetchHandlerOptions) {
  const gate = new Gate();
  const handle = toFetchHandler('/api', new Registry({ onError: () => {} }).on(gate).endpoints, options);
  return { gate, handle };
}

const getWait = () => new Request('http://x/api/getWait');
const hold = (text: string, stream = false): Request => {
  const bytes = new TextEncoder().encode(JSON.stringify(text));
  const body = stream
    ? new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      })
    : bytes;
  return new Request('http://x/api/hold', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    duplex: 'half',
  } as RequestInit);
};
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

async function expectBusy(response: Response): Promise<void> {
  expect(response.status).to.equal(503);
  expect(response.headers.get('retry-after')).to.equal('1');
  expect(await response.json()).to.include({ status: 503 });
}

describe('transports/fetch calls in flight and bodies held', function () {
  this.timeout(10_000);

  it('has the same options and defaults as HttpServer, checked the same way', () => {
    expect([DEFAULT_MAX_CALLS_IN_FLIGHT, DEFAULT_MAX_BUFFERED_BODY_BYTES]).to.deep.equal([
      http.DEFAULT_MAX_CALLS_IN_FLIGHT,
      http.DEFAULT_MAX_BUFFERED_BODY_BYTES,
    ]);
    const endpoints = new Registry().on(new Gate()).endpoints;
    for (const key of ['maxCallsInFlight', 'maxBufferedBodyBytes'] as const) {
      expect(() => toFetchHandler('/api', endpoints, { [key]: -1 }), key).to.throw(RangeError, key);
    }
    expect(() => toFetchHandler('/api', endpoints, { maxCallsInFlight: 0.5 })).to.throw(RangeError, 'maxCallsInFlight');
  });

  it('answers 503 with Retry-After beyond maxCallsInFlight, counting calls given up on until their handler settles', async () => {
    const { gate, handle } = handler({ maxCallsInFlight: 2, handlerTimeoutMs: 50 });
    const timedOut = await Promise.all([handle(getWait()), handle(getWait())]);
    expect(timedOut.map((r) => r.status)).to.deep.equal([503, 503]);
    expect(timedOut[0]!.headers.get('retry-after')).to.equal(null);
    await expectBusy(await handle(getWait()));
    expect(gate.started).to.equal(2);
    expect((await handle(new Request('http://x/api/nothing'))).status, 'not a call').to.equal(404);
    gate.release();
    gate.open = true;
    await settled();
    expect(await (await handle(getWait())).json()).to.equal('done');
  });

  for (const stream of [false, true]) {
    it(`counts bodies held and being read (${stream ? 'a stream' : 'a declared length'}) against maxBufferedBodyBytes`, async () => {
      const { gate, handle } = handler({ maxBufferedBodyBytes: MiB, handlerTimeoutMs: 50 });
      const text = 'z'.repeat(600 * KiB);
      expect((await handle(hold(text, stream))).status).to.equal(503);
      await expectBusy(await handle(hold(text, stream)));
      expect(gate.started).to.equal(1);
      gate.open = true;
      expect(await (await handle(hold('small', stream))).json(), 'a small body fits beside it').to.equal(5);
      await expectBusy(await handle(hold(text, stream)));
      gate.release();
      await settled();
      expect(await (await handle(hold(text, stream))).json()).to.equal(600 * KiB);
    });
  }
});
