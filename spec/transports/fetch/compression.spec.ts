// Compression on the fetch handler beyond the conformance suite (spec/transports/transport.case.ts):
// in process, with the Web streams it uses; the runtime's codings probed lazily; bombs in a child.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { json } from '../../../codecs/json/index.ts';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { toFetchHandler, type FetchHandlerOptions } from '../../../transports/fetch/index.ts';
import { runBombChild } from '../http/bomb-child.ts';

const MiB = 1024 * 1024;

/** Whether this runtime's Web streams take `format`. */
function takes(Stream: new (format: CompressionFormat) => unknown, format: string): boolean {
  try {
    new Stream(format as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}
const BR = takes(CompressionStream, 'br');
const INFLATES_BR = takes(DecompressionStream, 'br');

class Notes {
  list(): string[] {
    return Array.from({ length: 200 }, (_, i) => `note ${i}: remember the milk`);
  }
  join(parts: string[]): string {
    return parts.join(' ');
  }
}
const NotesApi = meta(
  Notes,
  service({ list: method([], t.array(t.string())), join: method([t.array(t.string())], t.string()) }),
);

const handler = (options: FetchHandlerOptions = {}) =>
  toFetchHandler('/api', new Registry().on(new Notes()).endpoints, options);
const get = (handle: ReturnType<typeof handler>, acceptEncoding?: string, method = 'GET') =>
  handle(
    new Request('http://in-process/api/list', {
      method,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    }),
  );
const post = (handle: ReturnType<typeof handler>, body: Uint8Array, contentEncoding: string) =>
  handle(
    new Request('http://in-process/api/join', {
      method: 'POST',
      body: body as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'application/json', 'content-encoding': contentEncoding },
    }),
  );

describe('transports/fetch compression', () => {
  const handle = handler();
  let identity = '';
  before(async () => {
    identity = await (await get(handle)).text();
  });

  it('gzips with CompressionStream (br where the runtime has it): Content-Length of the compressed bytes', async () => {
    const response = await get(handle, 'br, gzip');
    expect(response.headers.get('content-encoding')).to.equal(BR ? 'br' : 'gzip');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get('content-length')).to.equal(String(bytes.byteLength));
    expect(bytes.byteLength).to.be.below(identity.length / 4);
    // Read back with the Web API the handler wrote it with, and with node:zlib.
    const text = await new Response(
      new Response(bytes).body!.pipeThrough(new DecompressionStream(BR ? ('br' as CompressionFormat) : 'gzip')),
    ).text();
    expect(text).to.equal(identity);
    if (!BR) expect(zlib.gunzipSync(bytes).toString()).to.equal(identity);
    expect(response.headers.get('vary')).to.equal('Accept, Accept-Encoding');
  });

  it('answers HEAD with the identity headers and no body', async () => {
    const response = await get(handle, 'gzip', 'HEAD');
    expect(response.headers.get('content-encoding')).to.equal(null);
    expect(response.headers.get('content-length')).to.equal(String(Buffer.byteLength(identity)));
    expect(response.body).to.equal(null);
  });

  it('compression: false and encodings the runtime lacks leave answers identity', async () => {
    const off = await get(handler({ compression: false }), 'gzip');
    expect(off.headers.get('content-encoding')).to.equal(null);
    expect(off.headers.get('vary')).to.equal('Accept');
    const zstdOnly = await get(handler({ compression: { encodings: ['zstd'] } }), 'zstd, gzip');
    expect(zstdOnly.headers.get('content-encoding')).to.equal(takes(CompressionStream, 'zstd') ? 'zstd' : null);
    const low = await get(handler({ compression: { threshold: 100_000 } }), 'gzip');
    expect(low.headers.get('content-encoding')).to.equal(null);
  });

  it('refuses a malformed compression option', () => {
    for (const compression of [{ threshold: -1 }, { encodings: [] }, { encodings: ['deflate'] }]) {
      expect(() => handler({ compression: compression as never }), JSON.stringify(compression)).to.throw(
        RangeError,
        /toFetchHandler: compression/,
      );
    }
  });

  it('inflates gzip and deflate bodies with DecompressionStream; br where the runtime can, else 415', async () => {
    const body = Buffer.from(JSON.stringify(['a', 'b', 'c']));
    for (const [coding, bytes] of [
      ['gzip', zlib.gzipSync(body)],
      ['deflate', zlib.deflateSync(body)],
      ['deflate', zlib.deflateRawSync(body)],
    ] as const) {
      const response = await post(handle, bytes, coding);
      expect(await response.text(), coding).to.equal('"a b c"');
    }
    const br = await post(handle, zlib.brotliCompressSync(body), 'br');
    if (INFLATES_BR) expect(await br.text()).to.equal('"a b c"');
    else {
      expect(br.status).to.equal(415);
      expect(br.headers.get('accept-encoding')).to.equal('gzip, deflate');
    }
  });

  it('serves the in-process client (a Request without Accept-Encoding: identity)', async () => {
    const client = createClient(NotesApi, { baseUrl: 'http://in-process/api', codec: json, fetch: handle });
    expect(await client.list()).to.deep.equal(JSON.parse(identity));
  });

  it("probes the runtime's formats on first use, never when the module loads or the handler is built", async () => {
    const child = fileURLToPath(new URL('./probe-child.ts', import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', child], { timeout: 30_000 }, (error, out, err) =>
        error ? reject(new Error(err)) : resolve(out),
      );
    });
    const r = JSON.parse(stdout) as Record<string, { compression: number; decompression: number }> & { coding: string };
    expect(r.atStart).to.deep.equal({ compression: 0, decompression: 0 });
    expect(r.afterFirst!.compression).to.be.above(1);
    // A request without Content-Encoding probes no DecompressionStream format.
    expect(r.afterFirst!.decompression).to.equal(0);
    // Probed once: the second answer makes one stream, its own.
    expect(r.afterSecond!.compression).to.equal(r.afterFirst!.compression + 1);
    expect(r.coding).to.equal('gzip');
  });

  describe('decompression bombs (child processes)', function () {
    this.timeout(60_000);
    for (const coding of ['gzip', 'deflate'] as const) {
      it(`a ${coding} bomb of 128 MiB is a 413, the DecompressionStream cancelled: peak RSS grows by under 32 MiB`, async () => {
        const r = await runBombChild('fetch', coding, 128, MiB);
        expect(r.status).to.equal(413);
        expect(r.growthMiB, 'MiB of peak RSS growth').to.be.below(32);
        expect(r.ms, 'milliseconds (a crash guard, not a benchmark)').to.be.below(5000);
      });
    }
    it('control: with a limit above the bomb, the same measure sees it inflated whole (over 100 MiB)', async () => {
      const r = await runBombChild('fetch', 'gzip', 128, 1024 * MiB);
      expect(r.status).to.equal(400);
      expect(r.growthMiB).to.be.above(100);
    });
  });
});
