// What the direct-reader specs share: each binary format with its wire primitives, parser and
// another library's encoder; the two direct-reader compilers; running a direct reader whole.
import { Encoder as CborXEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { Failure } from '../../core/errors/failure.ts';
import { BAIL } from '../../core/codegen/codegen.ts';
import { DirectCursor, compileDirectReader, type DirectReader } from '../../codecs/binary/direct-reader.ts';
import { generateDirectReader } from '../../codecs/binary/generate-direct-reader.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { parseCbor } from '../../codecs/cbor/parse.ts';
import { cborReadWire } from '../../codecs/cbor/read-wire.ts';
import { cborWire } from '../../codecs/cbor/wire.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { parseMsgpack } from '../../codecs/msgpack/parse.ts';
import { msgpackReadWire } from '../../codecs/msgpack/read-wire.ts';
import { msgpackWire } from '../../codecs/msgpack/wire.ts';

const packr = new Packr({ useRecords: false, int64AsType: 'bigint' });
const cborX = new CborXEncoder({ useRecords: false, mapsAsObjects: true });

export const DIRECT_FORMATS = [
  {
    name: 'msgpack',
    codec: msgpack,
    wire: msgpackReadWire,
    encodeKey: (k: string) => msgpackWire.encodeKey(k),
    parse: parseMsgpack,
    /** Another library's encoding of a plain value: other heads and number widths than lacquer's writer picks. */
    foreign: (v: unknown) => packr.pack(v) as Uint8Array,
  },
  {
    name: 'cbor',
    codec: cbor,
    wire: cborReadWire,
    encodeKey: (k: string) => cborWire.encodeKey(k),
    parse: parseCbor,
    foreign: (v: unknown) => cborX.encode(v) as Uint8Array,
  },
];

export const DIRECT_COMPILERS = [
  { name: 'generated', compile: generateDirectReader },
  { name: 'closure', compile: compileDirectReader },
];

/** What a direct reader answers when it gives up (a bail, a failure, or bytes left after the value). */
export const GAVE_UP = Symbol('gave up');

/**
 * Runs `read` over the whole of `bytes`: its value, or `GAVE_UP`. Anything else it throws (a
 * `ReferenceError` of generated code, say) is a bug the codec would report, and is thrown on.
 */
export function runDirect(read: DirectReader, bytes: Uint8Array): unknown {
  try {
    const cursor = new DirectCursor(bytes);
    const value = read(cursor);
    return cursor.pos === cursor.end ? value : GAVE_UP;
  } catch (e) {
    if (e === BAIL || e instanceof Failure) return GAVE_UP;
    throw e;
  }
}
