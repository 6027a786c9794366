// lacquer against another checkout of itself, in one process: each codec case of bench/codecs.ts
// (encode, strict decode; JSON, MessagePack, CBOR) with this tree's code and the other's in
// alternating rounds. The ratio is this tree ÷ the other (above 1.0x, this tree is faster). Both
// sides see the same load, so this tells code changes apart from machine noise better than two runs
// of `npm run bench` at different times.
//
//   node --import tsx bench/ab.ts <other checkout> [--quick] [--rounds=25] [--only=User,Ledger] [--formats=json,cbor]
//
// The other checkout needs its own node_modules (a symlink to this one's will do).
import { isDeepStrictEqual } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cbor } from '../codecs/cbor/index.ts';
import { json } from '../codecs/json/index.ts';
import { msgpack } from '../codecs/msgpack/index.ts';
import { compare, onlyFilter } from './harness.ts';
import { PAYLOADS } from './payloads.ts';

const other = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (other === undefined)
  throw new Error('usage: node --import tsx bench/ab.ts <other checkout> [--quick] [--only=User]');
const quick = process.argv.includes('--quick');
const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
const [rounds, ms] = [
  roundsArg === undefined ? (quick ? 5 : 9) : Number(roundsArg.slice('--rounds='.length)),
  quick ? 150 : 400,
];
const formats = (['json', 'msgpack', 'cbor'] as const).filter(
  (f) =>
    !process.argv.some((a) => a.startsWith('--formats=')) ||
    process.argv.some((a) => a.startsWith('--formats=') && a.slice('--formats='.length).split(',').includes(f)),
);
const selected = onlyFilter(process.argv);
const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;

const load = async (path: string) =>
  (await import(pathToFileURL(resolve(other, path)).href)) as Record<string, unknown>;
const theirs = {
  json: (await load('codecs/json/index.ts')).json as typeof json,
  msgpack: (await load('codecs/msgpack/index.ts')).msgpack as typeof msgpack,
  cbor: (await load('codecs/cbor/index.ts')).cbor as typeof cbor,
  payloads: (await load('bench/payloads.ts')).PAYLOADS as typeof PAYLOADS,
};
const ours = { json, msgpack, cbor };

console.log(`${process.cwd()} ÷ ${resolve(other)}: ${rounds} alternating rounds × ${ms} ms, median ops/s`);
for (const p of PAYLOADS) {
  if (!selected(p.name)) continue;
  // Each side with its own descriptors (the payload of the same name in its own bench/payloads.ts).
  const q = theirs.payloads.find((x) => x.name === p.name);
  if (q === undefined) continue;
  for (const format of formats) {
    const a = ours[format];
    const b = theirs[format];
    const bytesA = a.encode(p.type, p.value as never);
    const bytesB = b.encode(q.type, q.value as never);
    if (!isDeepStrictEqual(bytesA, bytesB)) console.log(`  ${p.name} ${format}: the two write different bytes`);
    const cases = {
      encode: [
        { name: 'this tree', run: () => a.encode(p.type, p.value as never) },
        { name: 'other', run: () => b.encode(q.type, q.value as never) },
      ],
      'decode (strict)': [
        { name: 'this tree', run: () => a.decode(p.type, bytesA as never, STRICT) },
        { name: 'other', run: () => b.decode(q.type, bytesB as never, STRICT) },
      ],
    };
    for (const [operation, contenders] of Object.entries(cases)) {
      const [x, y] = compare(contenders, rounds, ms);
      console.log(`  ${`${p.name} ${format} ${operation}`.padEnd(48)} ${(x!.opsPerSec / y!.opsPerSec).toFixed(2)}x`);
    }
  }
}
