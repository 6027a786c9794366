// Run by spec/core/write/array-bounds.spec.ts in a child process with a small heap and a timeout,
// with and without code generation:
//   node --max-old-space-size=N [--disallow-code-generation-from-strings] --import tsx spec/support/array-bounds-child.ts
// Writes sparse and huge arrays with every codec and prints, for each case, what came out: the
// error's name, code and path, or the size written. A writer that loops over a sparse array's
// length (four billion holes) never prints, and the parent's timeout fails it.
import { t, type Codec, type Type } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

/** The longest array a JavaScript engine holds: four billion holes, no memory. */
const LONGEST = 4294967295;

/** An array of `length` holes with `values` set at their indexes. */
function sparse(length: number, values: Record<number, unknown>): unknown[] {
  const a = new Array<unknown>(length);
  for (const [i, v] of Object.entries(values)) a[Number(i)] = v;
  return a;
}

/** Claims `length` elements, each `value`, holding none: an array-like no writer should walk. */
function huge(length: number, value: unknown): unknown[] {
  return new Proxy([], {
    get: (target, key) =>
      key === 'length' ? length : typeof key === 'string' && /^\d+$/.test(key) ? value : Reflect.get(target, key),
  });
}

export const CASES: Record<string, { type: Type; value: unknown }> = {
  'longest sparse array of optional elements': { type: t.array(t.optional(t.i32())), value: new Array(LONGEST) },
  'longest sparse array of nullable elements': { type: t.array(t.nullable(t.string())), value: new Array(LONGEST) },
  'longest sparse array of void elements': { type: t.array(t.void()), value: new Array(LONGEST) },
  'longest sparse array of integers': { type: t.array(t.i32()), value: new Array(LONGEST) },
  'longest sparse array in an object': {
    type: t.object({ list: t.array(t.optional(t.bool())) }),
    value: { list: new Array(LONGEST) },
  },
  'longest sparse array as t.unknown()': { type: t.unknown(), value: new Array(LONGEST) },
  'a hole between values': { type: t.array(t.optional(t.i32())), value: sparse(3, { 0: 1, 2: 3 }) },
  'a hole after values': { type: t.array(t.nullable(t.i32())), value: sparse(3, { 0: 1, 1: 2 }) },
  'a hole in a tuple': { type: t.tuple([t.i32(), t.optional(t.i32())]), value: sparse(2, { 0: 1 }) },
  'a hole in t.unknown()': { type: t.unknown(), value: sparse(2, { 1: 'x' }) },
  'explicit undefined elements (no hole)': { type: t.array(t.optional(t.i32())), value: [undefined, 1, undefined] },
  'a huge array-like of integers': { type: t.array(t.i32()), value: huge(LONGEST, 1) },
  'a huge array-like as t.unknown()': { type: t.unknown(), value: huge(LONGEST, 1) },
  'a huge array-like of optional elements': { type: t.array(t.optional(t.i32())), value: huge(LONGEST, undefined) },
};

const CODECS: readonly Codec[] = [json, msgpack, cbor];

const out: Record<string, string> = {};
for (const [name, { type, value }] of Object.entries(CASES)) {
  for (const codec of CODECS) {
    let answer: string;
    try {
      const written = codec.encode(type, value as never);
      answer = `wrote ${typeof written === 'string' ? written : `${written.length} bytes`}`;
    } catch (e) {
      const { name: error, code, path } = e as Record<string, unknown>;
      answer = `${String(error)} ${String(code)} ${String(path)}`;
    }
    out[`${codec.name}: ${name}`] = answer;
  }
}
process.stdout.write(JSON.stringify(out));
