import { asWriteError } from '../../core/errors/write-error.ts';
import type { Type } from '../../core/types/type.ts';
import { canGenerateCode } from '../../core/util/codegen.ts';
import { compileJsonWriter } from './compile-writer.ts';
import { generateJsonWriter } from './generate-writer.ts';

/** A descriptor's whole JSON writer: a value in, JSON text out, or a `WriteError` thrown. */
export type EncodeJson = (value: unknown) => string;

const compact = new WeakMap<Type, EncodeJson>();
const pretty = new WeakMap<Type, EncodeJson>();

// The last compact writer asked for: a server writing one answer type after another skips the lookup.
let lastType: Type | undefined;
let lastWrite: EncodeJson | undefined;

/** The writer of `type`, compiled on first use and kept with the descriptor. */
export function jsonWriterFor(type: Type, prettify: boolean): EncodeJson {
  if (type === lastType && !prettify) return lastWrite!;
  const writers = prettify ? pretty : compact;
  let write = writers.get(type);
  if (write === undefined) writers.set(type, (write = compileWriter(type, prettify)));
  if (!prettify) {
    lastType = type;
    lastWrite = write;
  }
  return write;
}

/** Compact output gets generated code where the platform allows it; the closures always work. */
function compileWriter(type: Type, prettify: boolean): EncodeJson {
  const slow = compileJsonWriter(type, prettify);
  const closures: EncodeJson = (value) => {
    try {
      return slow(value, '');
    } catch (e) {
      throw asWriteError(e);
    }
  };
  if (prettify || !canGenerateCode()) return closures;
  const fast = generateJsonWriter(type);
  return (value) => {
    try {
      return fast(value);
    } catch {
      // The fast path bailed or met a bad value: the closure writer gives the text or the exact error.
      return closures(value);
    }
  };
}
