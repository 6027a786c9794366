import { asWriteError } from '../../core/errors/write-error.ts';
import type { Type } from '../../core/types/type.ts';
import { compileBinaryWriter, type BinaryWriter } from './compile-writer.ts';
import { Sink } from './sink.ts';
import type { Wire } from './wire.ts';

/** A sink grown beyond this is dropped after use rather than kept for the next call. */
const MAX_RETAINED_BYTES = 1024 * 1024;

/**
 * Builds a format's `encode`: writers are compiled once per descriptor and cached with it, and
 * one sink is reused across calls (the result is a copy). A call made while another is writing
 * (a getter that encodes) gets a sink of its own.
 */
export function binaryEncoder(wire: Wire): (type: Type, value: unknown) => Uint8Array {
  const writers = new WeakMap<Type, BinaryWriter>();
  let shared: Sink | undefined;
  let busy = false;
  return (type, value) => {
    let write = writers.get(type);
    if (write === undefined) writers.set(type, (write = compileBinaryWriter(type, wire)));
    const nested = busy;
    const s = nested ? new Sink() : (shared ??= new Sink());
    s.pos = 0;
    busy = true;
    try {
      write(s, value);
      return s.buf.slice(0, s.pos);
    } catch (e) {
      throw asWriteError(e);
    } finally {
      busy = nested;
      if (!nested && s.buf.length > MAX_RETAINED_BYTES) shared = undefined;
    }
  };
}
