import { asWriteError } from '../../core/errors/write-error.ts';
import type { Type } from '../../core/types/type.ts';
import { compileBinaryWriter, type BinaryWriter } from './compile-writer.ts';
import { Sink } from './sink.ts';
import type { Wire } from './wire.ts';

/** Size of the chunks results are carved from (like msgpackr): one allocation serves many small results. */
const CHUNK_BYTES = 64 * 1024;
/** Below this much room left in the chunk, the next value starts a new chunk. */
const MIN_FREE_BYTES = 1024;

/**
 * Builds a format's `encode`: writers are compiled once per descriptor and cached with it. Values
 * are written one after another into a shared chunk and returned as views of it; written bytes
 * are never overwritten, so every result stays valid, and a new chunk is started when one fills.
 * A call made while another is writing (a getter that encodes) gets a sink of its own.
 */
export function binaryEncoder(wire: Wire): (type: Type, value: unknown) => Uint8Array {
  const writers = new WeakMap<Type, BinaryWriter>();
  let shared = new Sink(CHUNK_BYTES);
  let busy = false;
  return (type, value) => {
    let write = writers.get(type);
    if (write === undefined) writers.set(type, (write = compileBinaryWriter(type, wire)));
    const nested = busy;
    if (!nested && shared.buf.length - shared.pos < MIN_FREE_BYTES) shared = new Sink(CHUNK_BYTES);
    const s = nested ? new Sink() : shared;
    s.start = s.pos;
    busy = true;
    try {
      write(s, value);
      const out = s.buf.subarray(s.start, s.pos);
      // Results larger than a chunk got a buffer of their own: the next value starts a fresh chunk.
      if (!nested && s.buf.length > CHUNK_BYTES) shared = new Sink(CHUNK_BYTES);
      return out;
    } catch (e) {
      s.pos = s.start; // nothing of a failed value stays in the chunk
      throw asWriteError(e);
    } finally {
      busy = nested;
    }
  };
}
