import { asWriteError } from '../../core/errors/write-error.ts';
import { CompiledCache } from '../../core/compiled.ts';
import { fastPath } from '../../core/codegen/fast-path.ts';
import { DEFAULT_MAX_DEPTH, type Opts } from '../../core/options.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { compileBinaryWriter, type BinaryWriter } from './compile-writer.ts';
import { generateBinaryWriter } from './generate-writer.ts';
import { Sink } from './sink.ts';
import type { Wire } from './wire.ts';

/** Size of the chunks results are carved from (like msgpackr): one allocation serves many small results. */
const CHUNK_BYTES = 64 * 1024;
/** Below this much room left in the chunk (or less than the last value took), the next value starts a new chunk. */
const MIN_FREE_BYTES = 1024;
/** A new chunk holds about four values the size of the last one, but no more than this beyond one. */
const MAX_SLACK_BYTES = 1024 * 1024;

/** The generated writer where the platform allows it, and the closure writer when it bails. */
function compileWriter(codec: string, type: Type, wire: Wire, maxDepth: number): BinaryWriter {
  const slow = compileBinaryWriter(type, wire, maxDepth);
  // Starts the value over with the closure writer, which gives the bytes or the exact error.
  const closures: BinaryWriter = (s, value) => {
    s.pos = s.start;
    slow(s, value);
  };
  return fastPath({ codec, type, generate: () => generateBinaryWriter(type, wire, maxDepth), fallback: closures });
}

/**
 * Builds a format's `encode`: writers are compiled once per descriptor and cached with it. Values
 * are written one after another into a shared chunk and returned as views of it; written bytes
 * are never overwritten, so every result stays valid, and a new chunk is started when one fills.
 * A call made while another is writing (a getter that encodes) gets a sink of its own. Of the
 * options only `maxDepth` matters: it bounds recursion through `t.lazy` and the nesting of
 * `t.unknown` values.
 */
export function binaryEncoder(
  codec: string,
  wire: Wire,
): {
  readonly encode: (type: Type, value: unknown, opts?: Opts) => Uint8Array;
  /** Compiles the writer of `type` now. */
  readonly prepare: (type: Type, opts?: Opts) => void;
} {
  const writers = new CompiledCache(
    `${codec}-encode`,
    (opts) => String(opts?.maxDepth ?? DEFAULT_MAX_DEPTH),
    (type, opts) => compileWriter(codec, type, wire, opts?.maxDepth ?? DEFAULT_MAX_DEPTH),
  );
  let shared = new Sink(CHUNK_BYTES);
  let busy = false;
  /** The size of the last result. */
  let last = 0;
  // Options without maxDepth (most) are the bare call: its writer is found with one comparison.
  const prepare = (type: Type, opts?: Opts): void =>
    void writers.get(type, opts?.maxDepth === undefined ? undefined : opts);
  const encode = (type: Type, value: unknown, opts?: Opts): Uint8Array => {
    const write = writers.get(type, opts?.maxDepth === undefined ? undefined : opts);
    const nested = busy;
    if (!nested && shared.buf.length - shared.pos < Math.max(MIN_FREE_BYTES, last)) {
      // Sized for a few values like the last one, so that large values do not each grow (copy) a chunk.
      shared = new Sink(Math.max(CHUNK_BYTES, Math.min(4 * last, last + MAX_SLACK_BYTES)));
    }
    const s = nested ? new Sink() : shared;
    s.start = s.pos;
    busy = true;
    try {
      write(s, value);
      const out = s.buf.subarray(s.start, s.pos);
      // A value that outgrew its chunk moved to a larger buffer (see Sink.grow); later values go after it.
      if (!nested) last = out.length;
      return out;
    } catch (e) {
      s.pos = s.start; // nothing of a failed value stays in the chunk
      throw asWriteError(e);
    } finally {
      busy = nested;
    }
  };
  return { encode, prepare };
}
