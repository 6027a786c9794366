import { asWriteError } from '../../core/errors/write-error.ts';
import { CompiledCache } from '../../core/compiled.ts';
import { fastPath } from '../../core/codegen/fast-path.ts';
import { DEFAULT_MAX_DEPTH, type Opts } from '../../core/options.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { compileJsonWriter } from './compile-writer.ts';
import { generateJsonWriter } from './generate-writer.ts';

/** A descriptor's whole JSON writer: a value in, JSON text out, or a `WriteError` thrown. */
export type EncodeJson = (value: unknown) => string;

const writers = new CompiledCache<EncodeJson>(
  'json-encode',
  (opts) => `${opts?.prettify === true ? 'pretty' : 'compact'} ${opts?.maxDepth ?? DEFAULT_MAX_DEPTH}`,
  (type, opts) => compileWriter(type, opts?.prettify === true, opts?.maxDepth ?? DEFAULT_MAX_DEPTH),
);

/**
 * The writer of `type` for these options, compiled on first use and kept with the descriptor.
 * `prettify` picks the form; `maxDepth` bounds recursion through `t.lazy` and the nesting of
 * `t.unknown` values.
 */
export function jsonWriterFor(type: Type, opts: Opts | undefined): EncodeJson {
  return writers.get(type, opts);
}

/** Compact output gets generated code where the platform allows it; the closures always work. */
function compileWriter(type: Type, prettify: boolean, maxDepth: number): EncodeJson {
  const slow = compileJsonWriter(type, prettify, maxDepth);
  const closures: EncodeJson = (value) => {
    try {
      return slow(value, '');
    } catch (e) {
      throw asWriteError(e);
    }
  };
  if (prettify) return closures;
  return fastPath({ codec: 'json', type, generate: () => generateJsonWriter(type, maxDepth), fallback: closures });
}
