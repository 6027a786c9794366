// Shared by the write-*.spec.ts files: writes a value with every codec, through the public
// `encode` and through each writer path apart (the closure writer, and the generated writer, which
// may bail), and checks that they agree.
import { expect } from 'chai';
import { type Opts, type Type, WriteError } from '../../index.ts';
import { Failure } from '../../core/errors/failure.ts';
import { asWriteError } from '../../core/errors/write-error.ts';
import { BAIL, canGenerateCode } from '../../core/codegen/codegen.ts';
import { compileJsonWriter } from '../../codecs/json/compile-writer.ts';
import { generateJsonWriter } from '../../codecs/json/generate-writer.ts';
import { json } from '../../codecs/json/index.ts';
import { compileBinaryWriter } from '../../codecs/binary/compile-writer.ts';
import { generateBinaryWriter } from '../../codecs/binary/generate-writer.ts';
import { Sink } from '../../codecs/binary/sink.ts';
import type { Wire } from '../../codecs/binary/wire.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { cborWire } from '../../codecs/cbor/wire.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { msgpackWire } from '../../codecs/msgpack/wire.ts';

/** What writing gave: the text (JSON), the bytes as hex (MessagePack, CBOR), or the error's code, path and message. */
export type Outcome =
  | { readonly out: string }
  | { readonly error: { code: string; path: string; message: string; key: string | undefined } };

export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function outcome(write: () => string | Uint8Array): Outcome {
  try {
    const out = write();
    return { out: typeof out === 'string' ? out : hex(out) };
  } catch (e) {
    const error = asWriteError(e);
    if (!(error instanceof WriteError)) throw error;
    return { error: { code: error.code, path: error.path, message: error.message, key: error.key } };
  }
}

/** The public `encode` of each codec. */
export function encodeAll(type: Type, value: unknown, opts?: Opts): { json: Outcome; msgpack: Outcome; cbor: Outcome } {
  return {
    json: outcome(() => json.encode(type, value as never, opts)),
    msgpack: outcome(() => msgpack.encode(type, value as never, opts)),
    cbor: outcome(() => cbor.encode(type, value as never, opts)),
  };
}

/** A generated writer's answer: its output, a bail, or a `Failure` (the closure writer then gives the error). */
type Fast = { readonly out: string } | { readonly bail: true } | { readonly failed: Failure };

function fast(write: () => string | Uint8Array): Fast {
  try {
    const out = write();
    return { out: typeof out === 'string' ? out : hex(out) };
  } catch (e) {
    if (e === BAIL) return { bail: true };
    if (e instanceof Failure) return { failed: e };
    throw e;
  }
}

function runBinary(write: (s: Sink, v: unknown) => void, value: unknown): Uint8Array {
  const s = new Sink(16); // small, so that it grows
  write(s, value);
  return s.buf.slice(s.start, s.pos);
}

const WIRES: readonly (readonly [string, Wire])[] = [
  ['msgpack', msgpackWire],
  ['cbor', cborWire],
];

/**
 * Writes `value` every way there is and checks that the ways agree: for each codec the closure
 * writer gives what `encode` gives; the generated writer gives the same output, or bails, or fails
 * where the closure writer fails (where code generation is allowed). Returns the public outcomes.
 */
export function writeEveryWay(
  type: Type,
  value: unknown,
  opts?: Opts,
): { json: Outcome; msgpack: Outcome; cbor: Outcome } {
  const maxDepth = opts?.maxDepth;
  const all = encodeAll(type, value, opts);
  const checkFast = (label: string, f: Fast, slow: Outcome) => {
    if ('bail' in f) return;
    if ('failed' in f)
      expect(
        slow,
        `${label}: the generated writer failed (${f.failed.detail}) where the closure writer wrote`,
      ).to.have.property('error');
    else expect({ out: f.out }, `${label}: generated against closure`).to.deep.equal(slow);
  };
  if (opts?.prettify !== true) {
    const slow = outcome(() => compileJsonWriter(type, false, maxDepth)(value, ''));
    expect(slow, 'json: closure writer against json.encode').to.deep.equal(all.json);
    if (canGenerateCode())
      checkFast(
        'json',
        fast(() => generateJsonWriter(type, maxDepth)(value)),
        slow,
      );
  }
  for (const [name, wire] of WIRES) {
    const slow = outcome(() => runBinary(compileBinaryWriter(type, wire, maxDepth), value));
    expect(slow, `${name}: closure writer against encode`).to.deep.equal(all[name as 'msgpack' | 'cbor']);
    if (canGenerateCode())
      checkFast(
        name,
        fast(() => runBinary(generateBinaryWriter(type, wire, maxDepth), value)),
        slow,
      );
  }
  return all;
}

/** Checks that every codec, every way, refuses `value` with `code` at `path`; returns the JSON error's message. */
export function expectWriteError(type: Type, value: unknown, code: string, path: string, opts?: Opts): string {
  const all = writeEveryWay(type, value, opts);
  for (const [name, o] of Object.entries(all)) {
    expect(o, `${name} writes ${JSON.stringify('out' in o ? o.out : '')}`).to.have.property('error');
    const { error } = o as { error: { code: string; path: string } };
    expect({ code: error.code, path: error.path }, name).to.deep.equal({ code, path });
  }
  const messages = Object.values(all).map((o) => (o as { error: { message: string } }).error.message);
  return messages[0]!;
}

/** Checks that every codec, every way, writes `value`; returns the JSON text and the bytes (hex). */
export function expectWritten(
  type: Type,
  value: unknown,
  opts?: Opts,
): { json: string; msgpack: string; cbor: string } {
  const all = writeEveryWay(type, value, opts);
  for (const [name, o] of Object.entries(all)) {
    if ('error' in o) expect.fail(`${name}: ${o.error.code} ${o.error.path} ${o.error.message}`);
  }
  return {
    json: (all.json as { out: string }).out,
    msgpack: (all.msgpack as { out: string }).out,
    cbor: (all.cbor as { out: string }).out,
  };
}

/**
 * Checks that the generated writers (JSON and both binary formats) write `value` themselves,
 * without bailing. Where code generation is forbidden (the closure-path rerun) there are none.
 */
export function expectGeneratedWrites(type: Type, value: unknown, opts?: Opts): void {
  if (!canGenerateCode()) return;
  const maxDepth = opts?.maxDepth;
  const answers: [string, Fast][] = [['json', fast(() => generateJsonWriter(type, maxDepth)(value))]];
  for (const [name, wire] of WIRES)
    answers.push([name, fast(() => runBinary(generateBinaryWriter(type, wire, maxDepth), value))]);
  for (const [name, f] of answers) expect(f, `${name}: the generated writer`).to.have.property('out');
}
