// Cases of the descriptor kinds beyond records of scalars: a t.variant of three shapes, decoded
// strictly against the peers' discriminated unions, and t.timestamp members in MessagePack against
// msgpackr's timestamp extension. Every case checks that all its contenders agree before timing.
import { deepStrictEqual, ok, throws } from 'node:assert/strict';
import { ExtensionCodec, decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Decoder as CborXDecoder, Encoder as CborXEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { cbor } from '../codecs/cbor/index.ts';
import { json } from '../codecs/json/index.ts';
import { msgpack } from '../codecs/msgpack/index.ts';
import type { CaseResult } from './codecs.ts';
import { compare, type Contender } from './harness.ts';
import { KIND_PAYLOADS, type Payload } from './payloads.ts';
import { toTypeBox, toZod } from './peers.ts';

const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;

/** The same value with one shape changed by `change`: what a strict reader must refuse. */
function withShape(p: Payload, change: (shape: Record<string, unknown>) => Record<string, unknown>): unknown {
  const v = p.value as Record<string, unknown>;
  if (!Array.isArray(v.shapes)) return change({ ...v });
  const shapes = [...v.shapes] as Record<string, unknown>[];
  shapes[shapes.length - 1] = change({ ...shapes[shapes.length - 1]! });
  return { shapes };
}

/**
 * A variant, decoded strictly: lacquer against each binary or JSON parser followed by TypeBox's
 * compiled `Union` and by Zod 4's `z.discriminatedUnion` (both strict objects), and the parser alone.
 * Every contender reads the same bytes (lacquer's); each is checked first to return the value, and
 * to refuse an unknown key and an unknown discriminant.
 */
function variantCases(p: Payload): Record<string, Contender[]> {
  const { type, value } = p;
  const typebox = TypeCompiler.Compile(toTypeBox(type));
  const zod = toZod(type);
  const packr = new Packr({ useRecords: false });
  const cborX = new CborXDecoder({ useRecords: false, mapsAsObjects: true } as never);
  const text = json.encode(type, value as never);
  const packed = msgpack.encode(type, value as never);
  const cbored = cbor.encode(type, value as never);
  deepStrictEqual(JSON.parse(text), value, `${p.name}: lacquer's JSON is not the value`);

  const checked = (name: string, v: unknown): unknown => {
    if (!typebox.Check(v)) throw new Error(`${p.name}: TypeBox refused what ${name} read`);
    return v;
  };
  const formats = [
    {
      format: 'json',
      parser: 'JSON.parse',
      bytes: text,
      parse: (x: never) => JSON.parse(x) as unknown,
      ours: (x: never) => json.decode(type, x, STRICT),
    },
    {
      format: 'msgpack',
      parser: 'msgpackr',
      bytes: packed,
      parse: (x: never) => packr.unpack(x) as unknown,
      ours: (x: never) => msgpack.decode(type, x, STRICT),
    },
    {
      format: 'cbor',
      parser: 'cbor-x',
      bytes: cbored,
      parse: (x: never) => cborX.decode(x) as unknown,
      ours: (x: never) => cbor.decode(type, x, STRICT),
    },
  ] as const;
  // The bad values are written by the peers: lacquer's writer refuses them as well.
  const cborXEncoder = new CborXEncoder({ useRecords: false, mapsAsObjects: true });
  const encodeAs = {
    json: (v: unknown) => JSON.stringify(v),
    msgpack: (v: unknown) => packr.pack(v),
    cbor: (v: unknown) => cborXEncoder.encode(v),
  };

  // Correctness first: each contender reads the value back, and refuses what a strict reader refuses.
  const unknownKey = withShape(p, (s) => ({ ...s, extra: 1 }));
  const unknownKind = withShape(p, (s) => ({ ...s, kind: 'triangle' }));
  for (const f of formats) {
    deepStrictEqual(f.ours(f.bytes as never), value, `${p.name}: lacquer ${f.format}.decode`);
    deepStrictEqual(checked(f.parser, f.parse(f.bytes as never)), value, `${p.name}: ${f.parser} + TypeBox`);
    deepStrictEqual(zod.parse(f.parse(f.bytes as never)), value, `${p.name}: ${f.parser} + Zod 4`);
    for (const [what, bad] of [
      ['an unknown key', unknownKey],
      ['an unknown discriminant', unknownKind],
    ] as const) {
      const bytes = encodeAs[f.format](bad);
      throws(() => f.ours(bytes as never), `${p.name}: lacquer ${f.format}.decode took ${what}`);
      ok(!typebox.Check(f.parse(bytes as never)), `${p.name}: TypeBox took ${what}`);
      throws(() => zod.parse(f.parse(bytes as never)), `${p.name}: Zod took ${what}`);
    }
  }

  // Written out per format, as in bench/codecs.ts: no call site is shared by two parsers.
  const check = (v: unknown): unknown => {
    if (!typebox.Check(v)) throw new Error('typebox');
    return v;
  };
  return {
    'json decode': [
      { name: 'lacquer json.decode (strict)', run: () => json.decode(type, text, STRICT) },
      { name: 'JSON.parse + TypeBox', run: () => check(JSON.parse(text)) },
      { name: 'JSON.parse + Zod 4', run: () => zod.parse(JSON.parse(text)) },
      { name: 'JSON.parse (no checks)', run: () => JSON.parse(text) },
    ],
    'msgpack decode': [
      { name: 'lacquer msgpack.decode (strict)', run: () => msgpack.decode(type, packed, STRICT) },
      { name: 'msgpackr + TypeBox', run: () => check(packr.unpack(packed)) },
      { name: 'msgpackr + Zod 4', run: () => zod.parse(packr.unpack(packed)) },
      { name: 'msgpackr (no checks)', run: () => packr.unpack(packed) },
    ],
    'cbor decode': [
      { name: 'lacquer cbor.decode (strict)', run: () => cbor.decode(type, cbored, STRICT) },
      { name: 'cbor-x + TypeBox', run: () => check(cborX.decode(cbored)) },
      { name: 'cbor-x + Zod 4', run: () => zod.parse(cborX.decode(cbored)) },
      { name: 'cbor-x (no checks)', run: () => cborX.decode(cbored) },
    ],
  };
}

/** The payloads of every extension -1 in `bytes`, in order, as hex. */
function timestampBytes(bytes: Uint8Array): string[] {
  const seen: string[] = [];
  const extensionCodec = new ExtensionCodec();
  extensionCodec.register({
    type: -1,
    encode: () => null,
    decode: (data) => seen.push(Buffer.from(data).toString('hex')),
  });
  msgpackDecode(bytes, { extensionCodec });
  return seen;
}

/**
 * Timestamps in MessagePack (extension type -1), lacquer against msgpackr's `Packr` (Dates are its
 * default extension) and @msgpack/msgpack. Checked first: each side reads the other's bytes back as
 * the same Dates, and @msgpack/msgpack reads both as timestamps; whether the bytes are the same is logged.
 */
function timestampCases(p: Payload): { cases: Record<string, Contender[]>; note: string } {
  const { type, value } = p;
  const packr = new Packr({ useRecords: false });
  const ours = msgpack.encode(type, value as never);
  const theirs = Uint8Array.from(packr.pack(value));
  deepStrictEqual(msgpack.decode(type, theirs, STRICT), value, `${p.name}: lacquer reading msgpackr's bytes`);
  deepStrictEqual(packr.unpack(ours), value, `${p.name}: msgpackr reading lacquer's bytes`);
  deepStrictEqual(msgpack.decode(type, ours, STRICT), value, `${p.name}: lacquer reading its own bytes`);
  // @msgpack/msgpack turns extension -1 into a Date and any other extension into ExtData: Dates here
  // mean both writers used the timestamp extension.
  deepStrictEqual(msgpackDecode(ours), value, `${p.name}: @msgpack/msgpack reading lacquer's bytes`);
  deepStrictEqual(msgpackDecode(theirs), value, `${p.name}: @msgpack/msgpack reading msgpackr's bytes`);
  const [a, b] = [timestampBytes(ours), timestampBytes(theirs)];
  deepStrictEqual(a, b, `${p.name}: lacquer and msgpackr write different timestamp bytes`);
  const same = Buffer.from(ours).equals(theirs) ? 'identical' : 'the same timestamps, other headers differ';
  const note = `${p.name}: lacquer ${ours.length} bytes, msgpackr ${theirs.length} bytes: ${same} (${a.length} ext -1 of ${[...new Set(a.map((x) => x.length / 2))].sort((x, y) => x - y).join('/')} bytes)`;
  return {
    note,
    cases: {
      'msgpack encode': [
        { name: 'lacquer msgpack.encode', run: () => msgpack.encode(type, value as never) },
        { name: 'msgpackr', run: () => packr.pack(value) },
        { name: '@msgpack/msgpack', run: () => msgpackEncode(value) },
      ],
      'msgpack decode': [
        { name: 'lacquer msgpack.decode (strict)', run: () => msgpack.decode(type, ours, STRICT) },
        { name: 'msgpackr (no checks)', run: () => packr.unpack(ours) },
        { name: '@msgpack/msgpack (no checks)', run: () => msgpackDecode(ours) },
      ],
    },
  };
}

/** The kind cases whose payload name `selected` accepts; `rounds`×`ms` per contender. */
export function runKindBenchmarks(
  rounds: number,
  ms: number,
  log: (line: string) => void,
  selected: (payload: string) => boolean = () => true,
): CaseResult[] {
  const out: CaseResult[] = [];
  const run = (p: Payload, cases: Record<string, Contender[]>) => {
    for (const [operation, contenders] of Object.entries(cases)) {
      log(`  ${p.name}: ${operation}`);
      out.push({ payload: p.name, operation, results: compare(contenders, rounds, ms) });
    }
  };
  for (const p of [KIND_PAYLOADS.shape, KIND_PAYLOADS.shapes]) if (selected(p.name)) run(p, variantCases(p));
  for (const p of [KIND_PAYLOADS.event, KIND_PAYLOADS.events]) {
    if (!selected(p.name)) continue;
    const { cases, note } = timestampCases(p);
    log(`  ${note}`);
    run(p, cases);
  }
  return out;
}
