// Run by spec/codecs/fast-path-agreement.spec.ts, twice with the same seed: once as it is (generated
// code, closures where it bails) and once under --disallow-code-generation-from-strings (closures
// alone):
//   node [--disallow-code-generation-from-strings] --import tsx spec/support/fast-path-agreement-child.ts <seed> <runs>
// For each generated descriptor, value, near value and options, it prints what every codec's
// encode and decode answer (the text or bytes, the value, or the error's name, code, path and
// message), and every report of generated code that threw. Both runs make the same descriptors in
// the same order (the arbitraries' names count from the start of the process), so the lists must
// be equal line by line, and the first run's reports empty.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { Encoder as CborXEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { onGeneratedCodeError, type Codec, type Type } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { arbJsonNear, arbMissingKeys, arbTyped } from './arbitraries.ts';

const [seed, runs] = process.argv.slice(2).map(Number) as [number, number];

const reports: string[] = [];
onGeneratedCodeError(({ phase, sourceUrl, error }) => reports.push(`${phase} ${sourceUrl}: ${String(error)}`));
// Anything else that warns (a report sent to the default handler, say) counts as one too.
console.warn = (...args: unknown[]) => void reports.push(args.map(String).join(' '));

const packr = new Packr({ useRecords: false, int64AsType: 'bigint' });
const cborX = new CborXEncoder({ useRecords: false, mapsAsObjects: true });

/** Each codec, and another library's encoding of a plain value in its format (other heads and widths than lacquer's). */
const CODECS: readonly { codec: Codec; foreign: (v: unknown) => Uint8Array | string }[] = [
  { codec: json, foreign: (v) => JSON.stringify(v) },
  { codec: msgpack, foreign: (v) => packr.pack(v) as Uint8Array },
  { codec: cbor, foreign: (v) => cborX.encode(v) as Uint8Array },
];

const arbCase = arbTyped.chain(({ type, value }) =>
  fc.record({
    type: fc.constant(type),
    value: fc.constant(value),
    near: arbJsonNear(type),
    opts: fc.record({
      errorOnMissingKeys: arbMissingKeys,
      errorOnUnknownKeys: fc.boolean(),
      maxDepth: fc.constantFrom(64, 2, 3),
    }),
  }),
);

/** What a call answered, as text that compares exactly (`-0`, bigints, bytes, key order and all). */
function outcome(call: () => unknown): string {
  try {
    return `= ${show(call())}`;
  } catch (e) {
    const { name, code, path, message } = e as Record<string, unknown>;
    return `! ${show({ name, code, path, message })}`;
  }
}

function show(v: unknown): string {
  return inspect(v, {
    depth: Infinity,
    breakLength: Infinity,
    maxArrayLength: Infinity,
    maxStringLength: Infinity,
    compact: true,
  });
}

const out: string[] = [];
const cases: string[] = [];
for (const { type, value, near, opts } of fc.sample(arbCase, { seed, numRuns: runs })) {
  const n = cases.length;
  cases.push(inspect({ type, value, near, opts }, { depth: 12, breakLength: Infinity }));
  for (const { codec, foreign } of CODECS) {
    const encode = (v: unknown) => codec.encode(type as Type, v as never, opts);
    let own: Uint8Array | string | undefined;
    out.push(`${n} ${codec.name} encode ${outcome(() => (own = encode(value)))}`);
    if (own !== undefined) out.push(`${n} ${codec.name} decode own ${outcome(() => codec.decode(type, own!, opts))}`);
    out.push(`${n} ${codec.name} encode near ${outcome(() => encode(near))}`);
    let bytes: Uint8Array | string | undefined;
    try {
      bytes = foreign(near);
    } catch {
      // a value the other library cannot write (a bigint in JSON) is no input here
    }
    if (bytes !== undefined)
      out.push(`${n} ${codec.name} decode near ${outcome(() => codec.decode(type, bytes!, opts))}`);
  }
}
process.stdout.write(JSON.stringify({ outcomes: out, cases, reports }));
