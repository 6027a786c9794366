// Server streams on both transports, through real HTTP: the framing chosen from Accept, items as
// they are produced, the end and a mid-stream problem told apart (read back by parsers we did not
// write where the framing has one), a failure before the first item answered as any problem, a
// client that stops reading holding the producer back, and a client that leaves stopping it.
import { expect } from 'chai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from 'node:http';
import { decodeMultiple as decodeCborSequence } from 'cbor-x';
import { Unpackr } from 'msgpackr';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import type { Codec } from '../../../core/codec.ts';
import { sequenceWriter } from '../../../transports/protocol/streams/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { HttpError } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { within } from '../calls.case.ts';
import { Tick, TicksApi, tick, ticksRegistry } from './ticks-service.ts';

const U64_MAX = '18446744073709551615';
/** A tick's JSON text, the u64 exact. */
const tickJson = (n: number) => `{"n":${n},"id":${BigInt(U64_MAX) - BigInt(n)},"label":"tick ${n}: grüße"}`;

/** Server-Sent Events as eventsource-parser reads them. */
function sseEvents(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

// No deadline by default: a loaded machine may take long, and mocha's timeout bounds the test.
const until = async (what: string, done: () => boolean, ms = Infinity) => {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

for (const transport of TRANSPORTS) {
  describe(`transports: server streams (${transport.kind})`, () => {
    let served: Served;
    let state: ReturnType<typeof ticksRegistry>;
    const url = (path: string) => `${served.url}/api${path}`;
    beforeEach(async () => {
      state = ticksRegistry();
      served = await transport.serve('/api', state.registry.endpoints);
    });
    afterEach(() => served.stop());

    describe('framing chosen from Accept', () => {
      it('JSON Lines: one compact item per line, then two blank lines for the clean end, no cache, Vary: Accept', async () => {
        const reply = await send(url('/listTicks'), { headers: { accept: 'application/jsonl' } });
        expect(reply.status).to.equal(200);
        expect(reply.headers['content-type']).to.equal('application/jsonl');
        expect(reply.headers['cache-control']).to.equal('no-store');
        expect(reply.headers.vary).to.equal('Accept');
        expect(reply.headers['content-length']).to.equal(undefined);
        expect(reply.text).to.equal(`${tickJson(0)}\n${tickJson(1)}\n${tickJson(2)}\n\n\n`);
        // Every line a JSON value or empty: what line-by-line tools read.
        for (const line of reply.text.split('\n').filter((l) => l !== ''))
          expect(() => JSON.parse(line)).not.to.throw();
      });

      it('JSON Lines without Accept, or with */*', async () => {
        for (const accept of [undefined, '*/*']) {
          const reply = await send(url('/listTicks'), accept === undefined ? {} : { headers: { accept } });
          expect(reply.headers['content-type']).to.equal('application/jsonl');
        }
      });

      it('Server-Sent Events for an EventSource: message events, then a named end event', async () => {
        const reply = await send(url('/listTicks'), { headers: { accept: 'text/event-stream' } });
        expect(reply.headers['content-type']).to.equal('text/event-stream');
        const events = sseEvents(reply.text);
        expect(events.map((e) => e.event ?? 'message')).to.deep.equal(['message', 'message', 'message', 'end']);
        expect(events.slice(0, 3).map((e) => e.data)).to.deep.equal([tickJson(0), tickJson(1), tickJson(2)]);
      });

      it('CBOR sequence: data items cbor-x reads one after another, then undefined twice', async () => {
        const reply = await send(url('/listTicks'), { headers: { accept: 'application/cbor-seq' } });
        expect(reply.headers['content-type']).to.equal('application/cbor-seq');
        const values = decodeCborSequence(reply.body) as (Record<string, unknown> | undefined)[];
        expect(values.slice(0, 3).map((v) => [v?.n, BigInt(v?.id as bigint), v?.label])).to.deep.equal(
          [0, 1, 2].map((n) => [n, tick(n).id, tick(n).label]),
        );
        expect(values.slice(3)).to.deep.equal([undefined, undefined]);
      });

      it('MessagePack sequence: values msgpackr reads one after another, then its undefined twice', async () => {
        const reply = await send(url('/listTicks'), { headers: { accept: 'application/msgpack-seq' } });
        expect(reply.headers['content-type']).to.equal('application/msgpack-seq');
        const values = new Unpackr({ int64AsType: 'bigint', mapsAsObjects: true }).unpackMultiple(reply.body) as (
          | Record<string, unknown>
          | undefined
        )[];
        expect(values.slice(0, 3).map((v) => [v?.n, BigInt(v?.id as bigint), v?.label])).to.deep.equal(
          [0, 1, 2].map((n) => [n, tick(n).id, tick(n).label]),
        );
        expect(values.slice(3)).to.deep.equal([undefined, undefined]);
      });

      it('writes every item compactly on one line under prettify: true, in JSON Lines and SSE', async () => {
        const pretty = ticksRegistry({ prettify: true });
        const own = await transport.serve('/api', pretty.registry.endpoints);
        try {
          const lines = await send(`${own.url}/api/listTicks`, { headers: { accept: 'application/jsonl' } });
          expect(lines.text).to.equal(`${tickJson(0)}\n${tickJson(1)}\n${tickJson(2)}\n\n\n`);
          const events = sseEvents(
            (await send(`${own.url}/api/listTicks`, { headers: { accept: 'text/event-stream' } })).text,
          );
          expect(events.map((e) => e.event ?? e.data)).to.deep.equal([tickJson(0), tickJson(1), tickJson(2), 'end']);
          expect(pretty.errors).to.deep.equal([]);
        } finally {
          await own.stop();
        }
      });

      it('answers 406 when no framing is acceptable, before the method runs', async () => {
        const reply = await send(url('/listTicks'), { headers: { accept: 'text/html' } });
        expect(reply.status).to.equal(406);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
      });

      it('takes an Iterable (an array) as a stream too', async () => {
        const reply = await send(url('/fromArray'), { headers: { accept: 'application/jsonl' } });
        expect(reply.text).to.equal('"a"\n"b"\n\n\n');
      });
    });

    describe('ends', () => {
      it('ends with a problem document after the items when the producer throws an HttpError', async () => {
        const reply = await send(url('/failAfter?count=2'), { headers: { accept: 'application/jsonl' } });
        expect(reply.status).to.equal(200);
        const [first, second, empty, problem, rest] = reply.text.split('\n');
        expect([first, second, empty]).to.deep.equal([tickJson(0), tickJson(1), '']);
        expect(JSON.parse(problem!)).to.include({ status: 409, detail: 'stopped after 2', title: 'Conflict' });
        expect(rest).to.equal('');
      });

      it('ends with an error event in SSE', async () => {
        const events = sseEvents(
          (await send(url('/failAfter?count=1'), { headers: { accept: 'text/event-stream' } })).text,
        );
        expect(events.map((e) => e.event ?? 'message')).to.deep.equal(['message', 'error']);
        expect(JSON.parse(events[1]!.data)).to.include({ status: 409 });
      });

      it('never sends the message of a plain Error: a 500 problem with the request id, told to onError', async () => {
        const reply = await send(url('/failSecretly'), {
          headers: { accept: 'application/jsonl', 'x-request-id': 'stream-secret' },
        });
        expect(reply.text).not.to.include('swordfish');
        const problem = JSON.parse(reply.text.split('\n')[2]!);
        expect(problem).to.include({ status: 500, requestId: 'stream-secret' });
        expect(state.errors.map((e) => (e as Error).message)).to.deep.equal(['the vault key is swordfish']);
      });

      it('ends with a problem when an item does not fit its descriptor', async () => {
        const reply = await send(url('/badItem'), { headers: { accept: 'application/jsonl' } });
        const lines = reply.text.split('\n');
        expect(lines[0]).to.equal(tickJson(0));
        expect(lines[1]).to.equal('');
        expect(JSON.parse(lines[2]!)).to.include({ status: 500 });
      });

      it('answers a failure before the first item as any problem: its status and headers', async () => {
        const reply = await send(url('/refuseFirst'), { headers: { accept: 'application/jsonl' } });
        expect(reply.status).to.equal(429);
        expect(reply.headers['retry-after']).to.equal('3');
        expect(reply.headers['content-type']).to.equal('application/problem+json');
      });
    });

    describe('flow', () => {
      it('holds the producer back while the client does not read, and stops it when the client leaves', async () => {
        const production = state.ticks.production;
        const req = request(url('/endless'), { headers: { accept: 'application/jsonl' }, agent: false });
        const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
          req.on('response', resolve).on('error', reject).end(),
        );
        response.pause();
        await until('a first item', () => production.pulled > 0);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const held = production.pulled;
        await new Promise((resolve) => setTimeout(resolve, 300));
        // The socket's buffers hold some megabytes of 1 KiB items; past them, nothing more is pulled.
        expect(production.pulled, 'items pulled while nothing is read').to.equal(held);
        expect(held).to.be.below(50_000);
        response.destroy();
        await until("the producer's finally", () => production.finished);
        expect(production.aborted).to.equal(true);
      });
    });

    describe('the typed client', () => {
      it('gives the items to for await, each decoded with its descriptor', async () => {
        const api = createClient(TicksApi, { baseUrl: url(''), codec: json });
        const seen = [];
        for await (const item of await api.listTicks()) seen.push(item);
        expect(seen).to.deep.equal([tick(0), tick(1), tick(2)]);
        const counted = [];
        for await (const item of await api.countTicks({ count: 1000 })) counted.push(item.n);
        expect(counted).to.deep.equal(Array.from({ length: 1000 }, (_, i) => i));
      });

      for (const codec of [msgpack, cbor]) {
        it(`reads the ${codec.name} sequence it asks for`, async () => {
          const api = createClient(TicksApi, { baseUrl: url(''), codec });
          const seen = [];
          for await (const item of await api.countTicks({ count: 50 })) seen.push(item);
          expect(seen).to.deep.equal(Array.from({ length: 50 }, (_, n) => tick(n)));
          const error = await (async () => {
            for await (const _ of await api.failAfter({ count: 1 }));
          })().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect((error as HttpError).status).to.equal(409);
        });
      }

      it('throws the problem that ends a stream, after its items', async () => {
        const api = createClient(TicksApi, { baseUrl: url(''), codec: json });
        const seen: number[] = [];
        const error = await (async () => {
          for await (const item of await api.failAfter({ count: 2 })) seen.push(item.n);
        })().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(seen).to.deep.equal([0, 1]);
        expect(error).to.be.instanceOf(HttpError);
        expect((error as HttpError).status).to.equal(409);
      });

      it('stops the producer when the loop is left', async () => {
        const api = createClient(TicksApi, { baseUrl: url(''), codec: json });
        let n = 0;
        for await (const _ of await api.endless()) if (++n === 3) break;
        await within(
          new Promise<void>((resolve) => {
            const check = () => (state.ticks.production.finished ? resolve() : setTimeout(check, 10));
            check();
          }),
          'the producer stopping',
        );
      });
    });
  });
}

for (const transport of TRANSPORTS) {
  describe(`transports: a stream whose first item is late (${transport.kind})`, () => {
    it('is answered 200 with its items, however far past the handler timeout the first comes', async () => {
      const state = ticksRegistry();
      const served = await transport.serve('/api', state.registry.endpoints, { handlerTimeoutMs: 100 });
      try {
        const reply = await send(`${served.url}/api/slowFirst`, { headers: { accept: 'application/jsonl' } });
        expect(reply.status).to.equal(200);
        expect(reply.text).to.equal(`${tickJson(0)}\n${tickJson(1)}\n\n\n`);
        expect(state.ticks.production.finished).to.equal(true);
      } finally {
        await served.stop();
      }
    });
  });
}

/**
 * The items the typed client reads, in `codec`, from a hand-made server whose `answer` writes the
 * body as `mediaType` with that framing's own writer, and the error the reading ended with.
 */
async function readFromHandMade(
  mediaType: string,
  codec: Codec,
  answer: (writer: ReturnType<typeof sequenceWriter>, res: import('node:http').ServerResponse) => void,
): Promise<{ seen: number[]; error: unknown }> {
  const { createServer } = await import('node:http');
  const writer = sequenceWriter(mediaType, codec, Tick);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': mediaType });
    answer(writer, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  try {
    // The client asks for its codec's sequence; the hand-made server answers what it answers.
    const api = createClient(TicksApi, { baseUrl: `http://127.0.0.1:${port}/api`, codec });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of await api.listTicks()) seen.push(item.n);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    return { seen, error };
  } finally {
    server.close();
  }
}

/** The framings the typed client asks for, with their codecs. */
const CLIENT_FRAMINGS: readonly (readonly [string, Codec])[] = [
  ['application/jsonl', json],
  ['application/cbor-seq', cbor],
  ['application/msgpack-seq', msgpack],
];

describe('transports: a stream cut before its end', () => {
  // Two items in each framing the client asks for, then the socket dropped. (Server-Sent Events
  // are for browsers' EventSource: the typed client never asks for them, and the readers' specs
  // cut them.)
  for (const [mediaType, codec] of CLIENT_FRAMINGS) {
    it(`is an error for the client, never a clean end (${mediaType})`, async () => {
      const { seen, error } = await readFromHandMade(mediaType, codec, (writer, res) => {
        res.write(writer.item(tick(0)));
        res.write(writer.item(tick(1)));
        setTimeout(() => res.socket?.destroy(), 20);
      });
      expect(seen).to.deep.equal([0, 1]);
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/cut|terminated|socket|closed/i);
    });
  }
});

describe("transports: bytes after a stream answer's end", () => {
  // Two items and the clean end in each framing the client asks for, then one more item.
  for (const [mediaType, codec] of CLIENT_FRAMINGS) {
    it(`are an error for the client, not dropped (${mediaType})`, async () => {
      const { seen, error } = await readFromHandMade(mediaType, codec, (writer, res) => {
        res.end(Buffer.concat([writer.item(tick(0)), writer.item(tick(1)), writer.end(), writer.item(tick(2))]));
      });
      expect(seen).to.deep.equal([0, 1]);
      expect(error).to.be.instanceOf(Error);
      expect(error).to.include({ code: 'syntax_error', path: '/2' });
    });
  }
});
