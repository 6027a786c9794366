import { asWriteError } from '../../core/errors/write-error.ts';
import { CompiledCache } from '../../core/fast-path/compiled.ts';
import { fastPath } from '../../core/fast-path/fast-path.ts';
import type { WriteOptions } from '../../core/options.ts';
import type { Type } from '../../core/types/type.ts';
import { compileJsonWriter } from './compile-writer.ts';
import { generateJsonWriter } from './generate-writer.ts';

/** A descriptor's whole JSON writer: a value in, JSON text out, or a `WriteError` thrown. */
export type EncodeJson = (value: unknown) => string;

const writers = new CompiledCache<EncodeJson>(
  'json-encode',
  (opts) => (opts?.prettify === true ? 'pretty' : 'compact'),
  (type, opts) => compileWriter(type, opts?.prettify === true),
);

/** The writer of `type` for these options, compiled on first use and kept with the descriptor. */
export function jsonWriterFor(type: Type, opts: WriteOptions | undefined): EncodeJson {
  return writers.get(type, opts);
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
  if (prettify) return closures;
  return fastPath({ codec: 'json', type, generate: () => generateJsonWriter(type), fallback: closures });
}
