import { encode as msgpackEncode } from '@msgpack/msgpack';
import { encode as cborEncode } from 'cbor-x';
import { ReadError, type Codec } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { codecConformance } from './codec.case.ts';

/** JSON text for any tree: bigints as exact digits, bytes as base64, dates as RFC 3339, undefined members left out. */
function jsonText(tree: unknown): string {
  if (typeof tree === 'bigint') return String(tree);
  if (tree instanceof Uint8Array) return JSON.stringify(btoa(String.fromCharCode(...tree)));
  if (tree instanceof Date) return JSON.stringify(tree.toISOString());
  if (Array.isArray(tree)) return `[${tree.map(jsonText).join(',')}]`;
  if (typeof tree === 'object' && tree !== null) {
    const o = tree as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${jsonText(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(tree);
}

/**
 * A user codec: JSON text sequences (RFC 7464), each record an RS byte, a JSON text and a line
 * feed. The same code is in docs/custom-codecs.md.
 */
const jsonSeq: Codec = {
  name: 'json-seq',
  contentTypes: ['application/json-seq'],
  encode: (type, value, opts) => '\x1e' + json.encode(type, value, opts) + '\n',
  decode(type, input, opts) {
    const n = input.length;
    const first = typeof input === 'string' ? input.charCodeAt(0) : input[0];
    const last = typeof input === 'string' ? input.charCodeAt(n - 1) : input[n - 1];
    if (first !== 0x1e || last !== 0x0a)
      throw new ReadError('syntax_error', '', 'a JSON text sequence record starts with RS and ends with LF');
    return json.decode(type, typeof input === 'string' ? input.slice(1, -1) : input.subarray(1, -1), opts);
  },
};

describe('codecs: one conformance suite', () => {
  describe('json', () => codecConformance({ codec: json, raw: jsonText }));
  // The binary inputs come from the generic engines, not from our writers.
  describe('msgpack', () =>
    codecConformance({ codec: msgpack, raw: (tree) => msgpackEncode(tree, { useBigInt64: true }) }));
  describe('cbor', () => codecConformance({ codec: cbor, raw: (tree) => cborEncode(tree) }));
  describe('a user codec (JSON text sequences)', () =>
    codecConformance({ codec: jsonSeq, raw: (tree) => '\x1e' + jsonText(tree) + '\n' }));
});
