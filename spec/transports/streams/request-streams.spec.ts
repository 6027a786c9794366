// Request streams on both transports, through real HTTP: a method reading its body item by item,
// in every sequence type, from bodies written by libraries we did not write; a bad item answered
// 400 at its index; the refusals before any item (security, media type, coding, a declared length
// over the limit); the limits per item and in all; the typed client sending an array and an async
// generator; and a body larger than the server's heap, read with bounded memory.
import { expect } from 'chai';
import { encode as cborEncode } from 'cbor-x';
import { pack } from 'msgpackr';
import { request } from 'node:http';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { HttpError, Registry, bearerAuth, contextKey, meta, method, service, t, type Infer } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { ChildServers } from '../../support/child-server.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Row = t.object({ n: t.u32(), title: t.string({ minLength: 1 }) }, { name: 'Row' });
type Row = Infer<typeof Row>;
const row = (n: number): Row => ({ n, title: `row ${n}: grüße` });

const CALLER = contextKey<string>('caller');
const RowsApi = service({
  importRows: method([t.stream(Row)], t.string()),
  importNamed: method({ rows: t.stream(Row) }, t.u32(), { route: 'POST /rows' }),
  takeTwo: method([t.stream(Row)], t.array(t.u32())),
  importSecured: method([t.stream(Row)], t.u32(), { security: ['bearer'] }),
});

class Rows {
  started = 0;
  /** Counts the rows and sums their numbers. */
  async importRows(rows: AsyncIterable<Row>): Promise<string> {
    let count = 0;
    let sum = 0;
    for await (const r of rows) {
      count++;
      sum += r.n;
    }
    return `${count} ${sum}`;
  }
  async importNamed({ rows }: { rows: AsyncIterable<Row> }): Promise<number> {
    let count = 0;
    for await (const _ of rows) count++;
    return count;
  }
  /** Reads two rows and leaves the rest. */
  async takeTwo(rows: AsyncIterable<Row>): Promise<number[]> {
    const out: number[] = [];
    for await (const r of rows) if (out.push(r.n) === 2) break;
    return out;
  }
  async importSecured(rows: AsyncIterable<Row>): Promise<number> {
    this.started++;
    let count = 0;
    for await (const _ of rows) count++;
    return count;
  }
}
meta(Rows, RowsApi);

const lines = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
const rows = (count: number) => Array.from({ length: count }, (_, n) => row(n));
const sumTo = (count: number) => (count * (count - 1)) / 2;

for (const transport of TRANSPORTS) {
  describe(`transports: request streams (${transport.kind})`, () => {
    let served: Served;
    let service: Rows;
    const url = (path: string) => `${served.url}/api${path}`;
    beforeEach(async () => {
      service = new Rows();
      const registry = new Registry({
        onError: () => {},
        maxItemBytes: 1024,
        maxStreamBytes: 4 * 1024 * 1024,
        security: { bearer: bearerAuth({ verify: (token) => (token === 'good' ? 'ada' : undefined), key: CALLER }) },
      }).on(service);
      served = await transport.serve('/api', registry.endpoints);
    });
    afterEach(() => served.stop());

    const bodies: readonly (readonly [string, (items: Row[]) => Uint8Array | string])[] = [
      ['application/jsonl', (items) => lines(items)],
      ['application/cbor-seq', (items) => Buffer.concat(items.map((r) => cborEncode(r)))],
      ['application/msgpack-seq', (items) => Buffer.concat(items.map((r) => pack(r)))],
    ];
    for (const [contentType, write] of bodies) {
      it(`reads 10,000 items of ${contentType} written by another library`, async () => {
        const reply = await send(url('/importRows'), {
          method: 'POST',
          headers: { 'content-type': contentType, accept: 'application/json' },
          body: write(rows(10_000)),
        });
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.json()).to.equal(`10000 ${sumTo(10_000)}`);
      });

      it(`answers a bad third item of ${contentType} with 400 at /2/title`, async () => {
        const items = [row(0), row(1), { n: 2, title: '' }, row(3)];
        const reply = await send(url('/importRows'), {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: write(items),
        });
        expect(reply.status).to.equal(400);
        expect(reply.json()).to.include({ code: 'out_of_range', path: '/2/title' });
      });
    }

    it('answers bytes after the end marker 400 (syntax_error at the index after the items), in every sequence type', async () => {
      const trailing: [string, Uint8Array | string][] = [
        ['application/jsonl', `${lines([row(1), row(2)])}\n\n${JSON.stringify(row(3))}\n`],
        ['application/jsonl', `${lines([row(1), row(2)])}\n\n\n`],
        ['application/cbor-seq', new Uint8Array([...cborEncode(row(1)), 0xf7, 0xf7, ...cborEncode(row(3))])],
        ['application/msgpack-seq', new Uint8Array([...pack(row(1)), 0xd4, 0, 0, 0xd4, 0, 0, ...pack(row(3))])],
      ];
      for (const [contentType, body] of trailing) {
        const reply = await send(url('/importRows'), {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        expect(reply.status, `${contentType}: ${reply.text}`).to.equal(400);
        expect(reply.json()).to.include({ code: 'syntax_error' });
        expect(reply.json().path, contentType).to.match(/^\/[12]$/);
      }
    });

    it('reads an empty body as no items', async () => {
      const reply = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl' },
      });
      expect(reply.json()).to.equal('0 0');
    });

    it('refuses before any item: a body that is no sequence (415 with Accept-Post), a coded one, a declared length over maxStreamBytes (413)', async () => {
      const notSequence = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[]',
      });
      expect(notSequence.status).to.equal(415);
      expect(notSequence.headers['accept-post']).to.equal(
        'application/jsonl, application/msgpack-seq, application/cbor-seq',
      );
      const coded = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl', 'content-encoding': 'gzip' },
        body: 'x',
      });
      expect(coded.status).to.equal(415);
      const tooLong = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl', 'content-length': 5 * 1024 * 1024 },
      });
      expect(tooLong.status).to.equal(413);
    });

    it('refuses an item over maxItemBytes, and a body growing past maxStreamBytes, with limit_exceeded', async () => {
      const big = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl' },
        body: lines([row(0), { n: 1, title: 'x'.repeat(2000) }]),
      });
      expect(big.status).to.equal(400);
      expect(big.json()).to.include({ code: 'limit_exceeded' });
      const many = lines(rows(120_000));
      expect(many.length).to.be.above(4 * 1024 * 1024);
      const long = await send(url('/importRows'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl', 'transfer-encoding': 'chunked' },
        body: many,
      });
      expect(long.status).to.equal(400);
      expect(long.json()).to.include({ code: 'limit_exceeded' });
    });

    it('checks security before any item is read: 401, the method never runs', async () => {
      const req = request(url('/importSecured'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl', 'transfer-encoding': 'chunked' },
        agent: false,
      });
      req.write(lines([row(0)]));
      // The body never ends: the answer comes without it.
      const status = await new Promise<number>((resolve, reject) =>
        req
          .on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject),
      );
      req.destroy();
      expect(status).to.equal(401);
      expect(service.started).to.equal(0);
    });

    it('answers a method that stops reading early, the rest of the body left unread', async () => {
      const reply = await send(url('/takeTwo'), {
        method: 'POST',
        headers: { 'content-type': 'application/jsonl' },
        body: lines(rows(5000)),
      });
      expect(reply.status).to.equal(200);
      expect(reply.json()).to.deep.equal([0, 1]);
      // The connection still serves the next request.
      expect(
        (
          await send(url('/importRows'), {
            method: 'POST',
            headers: { 'content-type': 'application/jsonl' },
            body: lines(rows(3)),
          })
        ).json(),
      ).to.equal('3 3');
    });

    for (const codec of [json, msgpack, cbor]) {
      it(`the typed client sends an array and an async generator (${codec.name})`, async () => {
        const api = createClient(RowsApi, { baseUrl: url(''), codec });
        expect(await api.importRows(rows(1000))).to.equal(`1000 ${sumTo(1000)}`);
        async function* produce() {
          for (let n = 0; n < 500; n++) yield row(n);
        }
        expect(await api.importNamed({ rows: produce() })).to.equal(500);
        const refused = await api.importRows([row(0), { n: 1, title: '' }]).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(refused, 'a value its descriptor refuses, before sending').to.be.instanceOf(Error);
        expect(refused).not.to.be.instanceOf(HttpError);
      });
    }
  });
}

describe("transports: a request stream larger than the server's heap", () => {
  const children = new ChildServers();
  after(() => children.end());

  it('reads 200 MiB item by item in a server with a 64 MiB heap', async function () {
    this.timeout(120_000);
    const server = await children.start('spec/transports/streams/upload-child.ts', {}, ['--max-old-space-size=64']);
    const line = `${JSON.stringify({ n: 1, text: 'x'.repeat(1000) })}\n`;
    const total = 200 * 1024 * 1024;
    const count = Math.ceil(total / line.length);
    const chunk = line.repeat(256);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          port: server.port,
          host: '127.0.0.1',
          path: '/api/importRows',
          method: 'POST',
          headers: { 'content-type': 'application/jsonl', 'transfer-encoding': 'chunked' },
          agent: false,
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const write = () => {
        while (sent < count) {
          const n = Math.min(256, count - sent);
          sent += n;
          if (!req.write(n === 256 ? chunk : line.repeat(n))) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
    expect(answer.status, `${answer.text} (${server.state()})`).to.equal(200);
    const [items, peakMiB] = (JSON.parse(answer.text) as string).split(' ').map(Number);
    expect(items).to.equal(count);
    expect(peakMiB, 'heap in use while reading, MiB').to.be.below(64);
  });
});
