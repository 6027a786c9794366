// Codec benchmarks: lacquer against the libraries a user would pick instead, per payload.
import { Ajv } from 'ajv';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fastJson from 'fast-json-stringify';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { Decoder as CborXDecoder, Encoder as CborXEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { cbor } from '../codecs/cbor/index.ts';
import { json } from '../codecs/json/index.ts';
import { msgpack } from '../codecs/msgpack/index.ts';
import { compare, type Contender, type Measurement } from './harness.ts';
import { KIND_PAYLOADS, PAYLOADS, asPlainNumbers, type Payload } from './payloads.ts';
import { inlinedJsonSchema, toTypeBox, toZod } from './peers.ts';

const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;

export interface CaseResult {
  payload: string;
  operation: string;
  /** The lacquer contender first, then its peers. */
  results: Measurement[];
}

export interface WireSize {
  payload: string;
  format: string;
  raw: number;
  gzip: number;
  brotli: number;
}

function jsonCases(p: Payload): Record<string, Contender[]> {
  const plain = asPlainNumbers(p.value);
  const text = json.encode(p.type, p.value as never);
  const plainText = JSON.stringify(plain);
  const schema = inlinedJsonSchema(p.type, STRICT);
  const stringify = fastJson(schema as never);
  const ajvCheck = new Ajv({ strict: false }).compile(schema);
  const typeboxCheck = TypeCompiler.Compile(toTypeBox(p.type));
  const zod = toZod(p.type);
  return {
    'json encode': [
      { name: 'lacquer json.encode', run: () => json.encode(p.type, p.value as never) },
      { name: 'JSON.stringify', run: () => JSON.stringify(plain) },
      { name: 'fast-json-stringify', run: () => stringify(plain) },
    ],
    'json decode': [
      { name: 'lacquer json.decode (strict)', run: () => json.decode(p.type, text, STRICT) },
      { name: 'JSON.parse (no checks)', run: () => JSON.parse(plainText) },
      {
        name: 'JSON.parse + ajv',
        run: () => {
          const v = JSON.parse(plainText);
          if (!ajvCheck(v)) throw new Error('ajv');
          return v;
        },
      },
      {
        name: 'JSON.parse + TypeBox',
        run: () => {
          const v = JSON.parse(plainText);
          if (!typeboxCheck.Check(v)) throw new Error('typebox');
          return v;
        },
      },
      { name: 'JSON.parse + Zod 4', run: () => zod.parse(JSON.parse(plainText)) },
    ],
  };
}

function binaryCases(p: Payload): Record<string, Contender[]> {
  const { type, value } = p;
  const packr = new Packr({ useRecords: false, int64AsType: 'bigint' });
  const cborX = new CborXEncoder({ useRecords: false, mapsAsObjects: true });
  const cborXDecoder = new CborXDecoder({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' } as never);
  const packed = msgpack.encode(type, value as never);
  const cbored = cbor.encode(type, value as never);
  return {
    'msgpack encode': [
      { name: 'lacquer msgpack.encode', run: () => msgpack.encode(type, value as never) },
      { name: 'msgpackr', run: () => packr.pack(value) },
      { name: '@msgpack/msgpack', run: () => msgpackEncode(value, { useBigInt64: true }) },
    ],
    'msgpack decode': [
      { name: 'lacquer msgpack.decode (strict)', run: () => msgpack.decode(type, packed, STRICT) },
      { name: '@msgpack/msgpack (no checks)', run: () => msgpackDecode(packed, { useBigInt64: true }) },
      { name: 'msgpackr (no checks)', run: () => packr.unpack(packed) },
    ],
    'cbor encode': [
      { name: 'lacquer cbor.encode', run: () => cbor.encode(type, value as never) },
      { name: 'cbor-x', run: () => cborX.encode(value) },
    ],
    'cbor decode': [
      { name: 'lacquer cbor.decode (strict)', run: () => cbor.decode(type, cbored, STRICT) },
      { name: 'cbor-x (no checks)', run: () => cborXDecoder.decode(cbored) },
    ],
  };
}

/** Every case for every payload whose name `selected` accepts; `rounds`×`ms` per contender. */
export function runCodecBenchmarks(
  rounds: number,
  ms: number,
  log: (line: string) => void,
  selected: (payload: string) => boolean = () => true,
): CaseResult[] {
  const out: CaseResult[] = [];
  for (const p of PAYLOADS) {
    if (!selected(p.name)) continue;
    const cases = { ...jsonCases(p), ...binaryCases(p) };
    for (const [operation, contenders] of Object.entries(cases)) {
      log(`  ${p.name}: ${operation}`);
      out.push({ payload: p.name, operation, results: compare(contenders, rounds, ms) });
    }
  }
  return out;
}

/** Encoded sizes per format: raw, gzip, brotli (the records, then the variant and timestamp payloads). */
export function wireSizes(): WireSize[] {
  const out: WireSize[] = [];
  for (const p of [...PAYLOADS, ...Object.values(KIND_PAYLOADS)]) {
    const encoded: [string, Uint8Array][] = [
      ['json', new TextEncoder().encode(json.encode(p.type, p.value as never))],
      ['msgpack', msgpack.encode(p.type, p.value as never)],
      ['cbor', cbor.encode(p.type, p.value as never)],
    ];
    for (const [format, bytes] of encoded) {
      out.push({
        payload: p.name,
        format,
        raw: bytes.length,
        gzip: gzipSync(bytes).length,
        brotli: brotliCompressSync(bytes).length,
      });
    }
  }
  return out;
}
