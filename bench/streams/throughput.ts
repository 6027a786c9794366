// Streams' framing, items per second: `node --import tsx bench/streams/throughput.ts [--no-http]`. Not part of
// `npm run bench`. Each case runs 7 rounds after a warm-up, in alternating order; the figure is the
// median round's items per second.
//
// - Writers: a stream of 100,000 `User`s (the specification's record) turned into bytes, item by
//   item, per media type, against `JSON.stringify(user) + '\n'` encoded as UTF-8 (what a hand-written
//   JSON Lines loop produces).
// - Over HTTP: node:http answering the 100,000 items, one `write` per item, read by a client in the
//   same process: a hand-written loop writing `JSON.stringify(user) + '\n'` against the writers, and
//   lacquer's HttpServer answering a stream method in each framing. Then a request stream of
//   1,000,000 items uploaded to a method that reads them: items/s and RSS growth.
// - Readers: the same streams read back in 64 KiB chunks, each item decoded and checked, against
//   line splitting + `JSON.parse`, cbor-x's `decodeMultiple` and msgpackr's `unpackMultiple` (no checks).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMultiple } from 'cbor-x';
import { unpackMultiple } from 'msgpackr';
import { Registry, meta, method, service, t, type Codec } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { sequenceReader, sequenceWriter } from '../../transports/protocol/streams/index.ts';
import { User } from '../../examples/records.ts';

const ITEMS = 100_000;
const ROUNDS = 7;
const CHUNK = 64 * 1024;
const users = Array.from({ length: 1000 }, (_, i) => ({
  id: 123456789 + i,
  name: `Ann Example ${i}`,
  weight: Math.fround(72.5),
}));
const user = (i: number) => users[i % users.length]!;
const MEDIA: [string, Codec][] = [
  ['application/jsonl', json],
  ['text/event-stream', json],
  ['application/cbor-seq', cbor],
  ['application/msgpack-seq', msgpack],
];

/** Runs each case once per round in turn; prints the median items/s of each, and returns them. */
async function compare(title: string, cases: Record<string, () => unknown>): Promise<Record<string, number>> {
  console.log(`\n${title}`);
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) await cases[name]!(); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const start = performance.now();
      await cases[name]!();
      times[name]!.push(performance.now() - start);
    }
  }
  const rates: Record<string, number> = {};
  for (const name of names) {
    const sorted = times[name]!.sort((a, b) => a - b);
    rates[name] = ITEMS / (sorted[ROUNDS >> 1]! / 1000);
    console.log(`  ${name.padEnd(52)} ${Math.round(rates[name]!).toLocaleString('en').padStart(12)} items/s`);
  }
  return rates;
}

const utf8 = new TextEncoder();
let sink = 0;

// ---- writers ----
const writerCases: Record<string, () => unknown> = {
  'hand-written: JSON.stringify + "\\n", UTF-8': () => {
    for (let i = 0; i < ITEMS; i++) sink += utf8.encode(JSON.stringify(user(i)) + '\n').length;
  },
};
for (const [mediaType, codec] of MEDIA) {
  const writer = sequenceWriter(mediaType, codec, User);
  writerCases[`writer: ${mediaType}`] = () => {
    for (let i = 0; i < ITEMS; i++) sink += writer.item(user(i) as never).length;
    sink += writer.end().length;
  };
}
const written = await compare(`Writers: ${ITEMS.toLocaleString('en')} User items to bytes`, writerCases);
const jsonl = written['writer: application/jsonl']!;
console.log(
  `  ratios: JSON Lines ÷ hand-written ${(jsonl / written['hand-written: JSON.stringify + "\\n", UTF-8']!).toFixed(2)}, CBOR ÷ JSON Lines ${(written['writer: application/cbor-seq']! / jsonl).toFixed(2)}, MessagePack ÷ JSON Lines ${(written['writer: application/msgpack-seq']! / jsonl).toFixed(2)}`,
);

// ---- over HTTP ----
if (!process.argv.includes('--no-http')) {
  type Loop = (res: http.ServerResponse) => void;
  const loops: Record<string, Loop> = {
    'hand-written node:http loop: JSON.stringify per line': (res) => {
      res.writeHead(200, { 'content-type': 'application/jsonl' });
      for (let i = 0; i < ITEMS; i++) res.write(JSON.stringify(user(i)) + '\n');
      res.end('\n\n');
    },
  };
  for (const [mediaType, codec] of MEDIA) {
    const writer = sequenceWriter(mediaType, codec, User);
    loops[`node:http + writer: ${mediaType}`] = (res) => {
      res.writeHead(200, { 'content-type': mediaType });
      for (let i = 0; i < ITEMS; i++) res.write(writer.item(user(i) as never));
      res.end(writer.end());
    };
  }
  const names = Object.keys(loops);
  const server = http.createServer((req, res) => loops[names[Number(req.url!.slice(1))]!]!(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // lacquer's own server: a stream method yielding the items, each framing asked for by Accept.
  class Users {
    async *listUsers() {
      for (let i = 0; i < ITEMS; i++) yield user(i);
    }
  }
  meta(Users as never, service({ listUsers: method([], t.stream(User)) }));
  const lacquer = await new HttpServer().mount('/api', new Registry().on(new Users()).endpoints).bind(0).start();
  for (const [mediaType] of MEDIA) names.push(`lacquer HttpServer: ${mediaType}`);
  const agent = new http.Agent({ keepAlive: true });
  const fetchAll = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const name = names[i]!;
      const own = name.startsWith('lacquer')
        ? { port: lacquer.port, path: '/api/listUsers', headers: { accept: name.slice(name.indexOf(': ') + 2) } }
        : { port, path: `/${i}` };
      http
        .get({ host: '127.0.0.1', agent, ...own }, (res) => {
          res.on('data', (chunk: Buffer) => (sink += chunk.length));
          res.on('end', resolve);
          res.on('error', reject);
        })
        .on('error', reject);
    });
  const overHttp = await compare(
    `Over HTTP: ${ITEMS.toLocaleString('en')} User items, one write each, read by a client in the same process`,
    Object.fromEntries(names.map((name, i) => [name, () => fetchAll(i)])),
  );
  const hand = overHttp[names[0]!]!;
  const lines = overHttp['node:http + writer: application/jsonl']!;
  console.log(
    `  ratios: JSON Lines ÷ hand-written ${(lines / hand).toFixed(2)}, CBOR ÷ JSON Lines ${(overHttp['node:http + writer: application/cbor-seq']! / lines).toFixed(2)}, MessagePack ÷ JSON Lines ${(overHttp['node:http + writer: application/msgpack-seq']! / lines).toFixed(2)}`,
  );
  const served = overHttp['lacquer HttpServer: application/jsonl']!;
  console.log(
    `  lacquer HttpServer: JSON Lines ÷ hand-written ${(served / hand).toFixed(2)}, CBOR ÷ JSON Lines ${(overHttp['lacquer HttpServer: application/cbor-seq']! / served).toFixed(2)}, MessagePack ÷ JSON Lines ${(overHttp['lacquer HttpServer: application/msgpack-seq']! / served).toFixed(2)}, SSE ÷ JSON Lines ${(overHttp['lacquer HttpServer: text/event-stream']! / served).toFixed(2)}`,
  );

  // A request stream: UPLOAD items sent to a method that reads them, items/s and the server's RSS growth.
  const UPLOAD = 1_000_000;
  class Imports {
    async importUsers(rows: AsyncIterable<unknown>) {
      let count = 0;
      for await (const _ of rows) count++;
      return count;
    }
  }
  meta(Imports as never, service({ importUsers: method([t.stream(User)], t.u32()) }));
  const importer = await new HttpServer({ handlerTimeoutMs: 0 })
    .mount('/api', new Registry().on(new Imports()).endpoints)
    .bind(0)
    .start();
  const block = Array.from({ length: 1000 }, (_, i) => `${JSON.stringify(user(i))}\n`).join('');
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  const counted = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: importer.port,
        path: '/api/importUsers',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/jsonl', accept: 'application/json' },
      },
      (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (body += d))
          .on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < UPLOAD) {
        sent += 1000;
        if (!req.write(block)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  console.log(
    `\nRequest stream: ${UPLOAD.toLocaleString('en')} User items in JSON Lines to lacquer's HttpServer (client in the same process)`,
  );
  console.log(
    `  ${counted} items read, ${Math.round(UPLOAD / seconds).toLocaleString('en')} items/s, RSS growth ${((rssPeak - rssBefore) / 1024 / 1024).toFixed(1)} MiB (server and client)`,
  );
  agent.destroy();
  server.close();
  await lacquer.stop();
  await importer.stop();
}

// ---- readers ----
function whole(mediaType: string, codec: Codec): Uint8Array[] {
  const writer = sequenceWriter(mediaType, codec, User);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < ITEMS; i++) parts.push(writer.item(user(i) as never));
  parts.push(writer.end());
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) bytes.set(p, at), (at += p.length);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.slice(i, i + CHUNK));
  return chunks;
}
const readerCases: Record<string, () => unknown> = {};
const streams = new Map(MEDIA.map(([mediaType, codec]) => [mediaType, whole(mediaType, codec)]));
const text = new TextDecoder();
readerCases['baseline: split lines + JSON.parse (no checks)'] = () => {
  let rest = '';
  for (const chunk of streams.get('application/jsonl')!) {
    const lines = (rest + text.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line !== '') sink += JSON.parse(line).id;
  }
};
const joined = (mediaType: string) => {
  const chunks = streams.get(mediaType)!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, at), (at += c.length);
  return out;
};
const cborWhole = joined('application/cbor-seq');
const msgpackWhole = joined('application/msgpack-seq');
readerCases['baseline: cbor-x decodeMultiple, whole (no checks)'] = () =>
  void decodeMultiple(cborWhole, () => void sink++);
readerCases['baseline: msgpackr unpackMultiple, whole (no checks)'] = () =>
  void unpackMultiple(msgpackWhole, () => void sink++);
for (const [mediaType, codec] of MEDIA) {
  readerCases[`reader: ${mediaType}`] = () => {
    const reader = sequenceReader(mediaType, codec, User);
    for (const chunk of streams.get(mediaType)!) {
      reader.push(chunk);
      for (let e = reader.next(); e !== undefined; e = reader.next()) sink++;
    }
    reader.finish();
    for (let e = reader.next(); e !== undefined; e = reader.next()) sink++;
  };
}
await compare(
  `Readers: ${ITEMS.toLocaleString('en')} User items in 64 KiB chunks, each decoded and checked`,
  readerCases,
);
if (sink === 0) console.log('(nothing measured)');
