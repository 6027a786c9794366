// Request streams count against HttpServer's maxBufferedBodyBytes: clients that each send one
// unfinished item (a JSON line without its line feed) and wait hold the server's memory as
// unfinished whole bodies would, and past the cap are answered 503 with Retry-After. In a child
// with a small heap; bounded by counts (the spec asks the child's figures a bounded number of times).
import { expect } from 'chai';
import { request, type ClientRequest } from 'node:http';
import { ChildServers, type ChildServer } from '../../support/child-server.ts';

const MiB = 1024 * 1024;
const CAP = 8 * MiB;
const CLIENTS = 40;
/** One unfinished JSON line of about 900 KiB: under maxItemBytes (1 MiB), never ended. */
const PARTIAL = `{"n":1,"text":"${'x'.repeat(900 * 1024)}`;

function stats(server: ChildServer): Promise<{ arrayBuffers: number }> {
  return new Promise((resolve, reject) => {
    request({ port: server.port, host: '127.0.0.1', path: '/stats', agent: false }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (text += d))
        .on('end', () => resolve(JSON.parse(text) as { arrayBuffers: number }));
    })
      .on('error', reject)
      .end();
  });
}

describe('transports: request streams under maxBufferedBodyBytes (HttpServer, 48 MiB heap)', () => {
  const children = new ChildServers();
  const requests: ClientRequest[] = [];
  after(() => {
    for (const r of requests) r.destroy();
    children.end();
  });

  it(`answers 503 to the clients whose unfinished items would pass the cap, the bytes held staying near it (${CLIENTS} clients, ${CAP / MiB} MiB cap)`, async function () {
    this.timeout(120_000);
    const server = await children.start(
      'spec/transports/streams/unfinished-items-child.ts',
      { maxBufferedBodyBytes: CAP },
      ['--max-old-space-size=48'],
    );
    const statuses: number[] = [];
    const retryAfter: (string | undefined)[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const req = request(
        {
          port: server.port,
          host: '127.0.0.1',
          path: '/api/importRows',
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/jsonl', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          statuses.push(res.statusCode ?? 0);
          retryAfter.push(res.headers['retry-after']);
          res.resume();
        },
      );
      req.on('error', () => {});
      req.write(PARTIAL);
      requests.push(req);
    }
    // Every client answered 503 but those that fit under the cap (at most CAP / 900 KiB of them).
    const fitting = Math.floor(CAP / (900 * 1024));
    let held = (await stats(server)).arrayBuffers;
    for (let i = 0; i < 300 && statuses.length < CLIENTS - fitting; i++) held = (await stats(server)).arrayBuffers;
    expect(server.state()).to.equal('running');
    expect(statuses.length, `clients answered (${Math.round(held / MiB)} MiB held in ArrayBuffers)`).to.be.at.least(
      CLIENTS - fitting,
    );
    expect(
      statuses.every((s) => s === 503),
      String(statuses),
    ).to.equal(true);
    expect(retryAfter.every((r) => r === '1')).to.equal(true);
    expect(held, 'bytes held in ArrayBuffers').to.be.below(CAP + 8 * MiB);
  });
});
