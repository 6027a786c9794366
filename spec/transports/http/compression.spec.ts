// Compression on HttpServer beyond the conformance suite (spec/transports/transport.case.ts): the
// codings node:zlib offers, the options, route handlers and pipelining (curl --compressed:
// spec/interop/curl-compression.spec.ts).
import { expect } from 'chai';
import { Agent } from 'node:http';
import * as zlib from 'node:zlib';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { HttpServer, type HttpServerOptions } from '../../../transports/http/index.ts';
import { listen, raw, send, type Reply } from '../../support/http-client.ts';

const zstdDecompress = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
const HAS_ZSTD = typeof (zlib as unknown as { zstdCompress?: unknown }).zstdCompress === 'function';

const Row = t.object({ id: t.u32(), name: t.string(), tags: t.array(t.string()) }, { name: 'Row' });
type Row = { id: number; name: string; tags: string[] };
const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: i, name: `row number ${i}`, tags: ['alpha', 'beta', String(i % 7)] }));

class Table {
  listRows(): Row[] {
    return rows(100);
  }
  someRows(n: number): Row[] {
    return rows(n);
  }
  sum(values: number[]): number {
    return values.reduce((a, b) => a + b, 0);
  }
}
meta(
  Table,
  service({
    listRows: method([], t.array(Row)),
    someRows: method([t.u32()], t.array(Row)),
    sum: method([t.array(t.u32())], t.u32()),
  }),
);

function inflated(reply: Reply): Buffer {
  const coding = reply.headers['content-encoding'];
  if (coding === undefined) return reply.body;
  if (coding === 'gzip') return zlib.gunzipSync(reply.body);
  if (coding === 'br') return zlib.brotliDecompressSync(reply.body);
  if (coding === 'zstd' && zstdDecompress !== undefined) return zstdDecompress(reply.body);
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

const BIG_TEXT = 'All work and no play makes Jack a dull boy. '.repeat(100);

/** A server with the registry under /api and routes of its own, started on a free port. */
async function serve(options: HttpServerOptions = {}): Promise<{ server: HttpServer; url: string }> {
  const server = new HttpServer({ ...options, onError: () => {} })
    .mount('/api', new Registry({ onError: () => {} }).on(new Table()).endpoints)
    .get('/text', (_req, res) => {
      res.send(BIG_TEXT);
    })
    .get('/tagged', (_req, res) => {
      res.header('etag', '"v1"').header('vary', 'Cookie').send(BIG_TEXT);
    })
    .get('/encoded', (_req, res) => {
      res.header('content-encoding', 'gzip').send(zlib.gzipSync(BIG_TEXT));
    })
    .get('/image', (_req, res) => {
      res.header('content-type', 'image/png').send(new Uint8Array(4096));
    })
    .get('/not-modified', (_req, res) => {
      res.status(304).header('etag', '"v1"').send(BIG_TEXT);
    })
    .post('/echo', (req, res) => {
      res.send(req.text());
    })
    .post('/rows', (req, res) => {
      res.json(req.json(t.array(Row)).length);
    });
  return { server, url: await listen(server) };
}

describe('transports/http compression', () => {
  let server: HttpServer;
  let url = '';
  let identity: Buffer;
  before(async () => {
    ({ server, url } = await serve());
    identity = (await send(`${url}/api/listRows`)).body;
  });
  after(() => server.stop());
  const list = (acceptEncoding: string) =>
    send(`${url}/api/listRows`, { headers: { 'accept-encoding': acceptEncoding } });

  describe('answers', () => {
    it('offers br and gzip (zstd where node:zlib has it), br first at equal q', async () => {
      for (const [header, expected] of [
        ['gzip, br', 'br'],
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['*', 'br'],
        ['gzip, zstd', HAS_ZSTD ? 'zstd' : 'gzip'],
        ['zstd', HAS_ZSTD ? 'zstd' : undefined],
        ['br;q=0.5, gzip', 'gzip'],
        ['deflate, gzip, br, zstd', 'br'],
      ] as const) {
        const reply = await list(header);
        expect(reply.headers['content-encoding'], header).to.equal(expected);
        expect(reply.headers['content-length'], header).to.equal(String(reply.body.length));
        expect(inflated(reply).equals(identity), header).to.equal(true);
      }
    });

    it('compresses large answers asynchronously, each right under concurrency on kept-alive connections', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      try {
        const codings = ['gzip', 'br', 'identity', 'gzip;q=0.5, br;q=0.6'];
        const replies = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            send(`${url}/api/someRows`, {
              method: 'POST',
              agent,
              body: String(200 + i),
              headers: { 'content-type': 'application/json', 'accept-encoding': codings[i % 4]! },
            }),
          ),
        );
        replies.forEach((reply, i) => {
          expect(reply.headers['content-encoding']).to.equal(['gzip', 'br', undefined, 'br'][i % 4]);
          expect(JSON.parse(inflated(reply).toString())).to.have.length(200 + i);
        });
      } finally {
        agent.destroy();
      }
    });

    it('keeps pipelined answers in order when the first is compressed and the second is not', async () => {
      const head = (extra: string) => `GET /api/listRows HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
      const out = await raw(server.port, head('Accept-Encoding: br\r\n') + head('Connection: close\r\n'));
      const first = out.indexOf('HTTP/1.1 200');
      const second = out.indexOf('HTTP/1.1 200', first + 1);
      expect(first).to.equal(0);
      expect(second).to.be.above(0);
      expect(out.slice(0, second)).to.match(/content-encoding: br/i);
      expect(out.slice(second)).not.to.match(/content-encoding/i);
      expect(out.slice(second).endsWith(identity.toString('latin1'))).to.equal(true);
    });

    it("compresses a route handler's answer, merging its Vary and weakening its strong ETag", async () => {
      const text = await send(`${url}/text`, { headers: { 'accept-encoding': 'gzip' } });
      expect(text.headers['content-encoding']).to.equal('gzip');
      expect(inflated(text).toString()).to.equal(BIG_TEXT);
      expect(text.headers.vary).to.equal('Accept-Encoding');
      const tagged = await send(`${url}/tagged`, { headers: { 'accept-encoding': 'br' } });
      expect(tagged.headers.etag).to.equal('W/"v1"');
      expect(tagged.headers.vary).to.equal('Cookie, Accept-Encoding');
      const plain = await send(`${url}/tagged`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.etag).to.equal('"v1"');
      expect(plain.headers['content-encoding']).to.equal(undefined);
    });

    it('leaves alone an answer with its own Content-Encoding, compressed media and a 304', async () => {
      const encoded = await send(`${url}/encoded`, { headers: { 'accept-encoding': 'br' } });
      expect(encoded.headers['content-encoding']).to.equal('gzip');
      expect(zlib.gunzipSync(encoded.body).toString()).to.equal(BIG_TEXT);
      expect(encoded.headers.vary).to.equal(undefined);
      const image = await send(`${url}/image`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(image.headers['content-encoding']).to.equal(undefined);
      expect(image.body.length).to.equal(4096);
      expect(image.headers.vary).to.equal(undefined);
      const notModified = await send(`${url}/not-modified`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(notModified.status).to.equal(304);
      expect(notModified.headers['content-encoding']).to.equal(undefined);
    });

    it('sends HEAD of a route the identity headers', async () => {
      const reply = await send(`${url}/text`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } });
      expect(reply.headers['content-encoding']).to.equal(undefined);
      expect(reply.headers['content-length']).to.equal(String(Buffer.byteLength(BIG_TEXT)));
      expect(reply.body.length).to.equal(0);
    });
  });

  describe('options', () => {
    const started: HttpServer[] = [];
    after(() => Promise.all(started.map((s) => s.stop())));
    const start = async (options: HttpServerOptions) => {
      const served = await serve(options);
      started.push(served.server);
      return served.url;
    };

    it('compression: false sends identity without Vary, and still inflates request bodies', async () => {
      const off = await start({ compression: false });
      const reply = await send(`${off}/api/listRows`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(reply.headers['content-encoding']).to.equal(undefined);
      expect(reply.headers.vary).to.equal('Accept');
      const echo = await send(`${off}/echo`, {
        method: 'POST',
        body: zlib.gzipSync('hello'),
        headers: { 'content-encoding': 'gzip' },
      });
      expect(echo.text).to.equal('hello');
    });

    it('encodings: offers those listed, in their order', async () => {
      const gzipOnly = await start({ compression: { encodings: ['gzip'] } });
      expect(
        (await send(`${gzipOnly}/api/listRows`, { headers: { 'accept-encoding': 'br, gzip' } })).headers[
          'content-encoding'
        ],
      ).to.equal('gzip');
      expect(
        (await send(`${gzipOnly}/api/listRows`, { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'],
      ).to.equal(undefined);
      const gzipFirst = await start({ compression: { encodings: ['gzip', 'br'] } });
      expect(
        (await send(`${gzipFirst}/api/listRows`, { headers: { 'accept-encoding': 'br, gzip' } })).headers[
          'content-encoding'
        ],
      ).to.equal('gzip');
      // zstd where node:zlib lacks it is left out, not an error: one setting for every runtime.
      const zstdOnly = await start({ compression: { encodings: ['zstd'] } });
      const reply = await send(`${zstdOnly}/api/listRows`, { headers: { 'accept-encoding': 'zstd, gzip' } });
      expect(reply.headers['content-encoding']).to.equal(HAS_ZSTD ? 'zstd' : undefined);
    });

    it('threshold: the smallest body compressed', async () => {
      const everything = await start({ compression: { threshold: 0 } });
      const small = await send(`${everything}/api/someRows`, {
        method: 'POST',
        body: '1',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      });
      expect(small.headers['content-encoding']).to.equal('gzip');
      expect(JSON.parse(inflated(small).toString())).to.deep.equal(rows(1));
      const high = await start({ compression: { threshold: 1 << 20 } });
      const big = await send(`${high}/api/listRows`, { headers: { 'accept-encoding': 'gzip' } });
      expect(big.headers['content-encoding']).to.equal(undefined);
      expect(big.headers.vary).to.equal('Accept');
    });

    it('refuses a malformed compression option', () => {
      for (const compression of [
        { threshold: -1 },
        { threshold: 0.5 },
        { encodings: [] },
        { encodings: ['deflate'] },
        { encodings: ['br', 'br'] },
      ]) {
        expect(() => new HttpServer({ compression: compression as never }), JSON.stringify(compression)).to.throw(
          RangeError,
          /HttpServer: compression/,
        );
      }
      expect(() => new HttpServer({ compression: 'gzip' as never })).to.throw(TypeError, /HttpServer: compression/);
    });
  });

  describe('request bodies', () => {
    it('inflates gzip, deflate and br bodies for route handlers (req.text(), req.json())', async () => {
      const text = 'héllo wörld '.repeat(50);
      for (const [coding, body] of [
        ['gzip', zlib.gzipSync(text)],
        ['deflate', zlib.deflateSync(text)],
        ['deflate', zlib.deflateRawSync(text)],
        ['br', zlib.brotliCompressSync(text)],
      ] as const) {
        const reply = await send(`${url}/echo`, { method: 'POST', body, headers: { 'content-encoding': coding } });
        expect(reply.status, coding).to.equal(200);
        expect(reply.text, coding).to.equal(text);
      }
      const json = JSON.stringify(rows(30));
      const reply = await send(`${url}/rows`, {
        method: 'POST',
        body: zlib.brotliCompressSync(json),
        headers: { 'content-encoding': 'br' },
      });
      expect(reply.text).to.equal('30');
    });

    it('inflates a zstd body where node:zlib can, and answers 415 where not', async () => {
      const zstd = (zlib as unknown as { zstdCompressSync?: (b: string) => Buffer }).zstdCompressSync;
      const body = zstd === undefined ? Buffer.from('not zstd') : zstd('hello');
      const reply = await send(`${url}/echo`, { method: 'POST', body, headers: { 'content-encoding': 'zstd' } });
      if (HAS_ZSTD) expect(reply.text).to.equal('hello');
      else {
        expect(reply.status).to.equal(415);
        expect(reply.headers['accept-encoding']).to.equal('gzip, deflate, br');
      }
    });

    it('applies the limit to the inflated size for route handlers, and to a chunked upload', async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20));
      for (const headers of [
        { 'content-encoding': 'gzip' },
        { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' },
      ]) {
        const reply = await send(`${url}/echo`, { method: 'POST', body: bomb, headers });
        expect(reply.status).to.equal(413);
        expect(reply.json()).to.include({ status: 413, detail: 'the request body inflates to over 1048576 bytes' });
      }
      const brBomb = zlib.brotliCompressSync(Buffer.alloc(64 * 1024 * 1024), {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
      });
      expect(brBomb.length).to.be.below(1024);
      expect(
        (await send(`${url}/echo`, { method: 'POST', body: brBomb, headers: { 'content-encoding': 'br' } })).status,
      ).to.equal(413);
    });

    it('answers 415 to an unknown coding before reading the body or sending 100 Continue', async () => {
      const out = await raw(
        server.port,
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Encoding: compress\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n',
      );
      expect(out).to.match(/^HTTP\/1\.1 415 Unsupported Media Type\r\n/);
      expect(out).not.to.include('100 Continue');
      expect(out).to.match(/accept-encoding: gzip, deflate, br/i);
      expect(out).to.match(/connection: close/i);
    });

    it('answers 400 to a corrupt body', async () => {
      const reply = await send(`${url}/echo`, {
        method: 'POST',
        body: Buffer.from('definitely not brotli'),
        headers: { 'content-encoding': 'br' },
      });
      expect(reply.status).to.equal(400);
      expect(reply.json()).to.include({ detail: 'the request body is not valid br data' });
    });
  });
});
