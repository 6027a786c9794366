import { Failure } from '../../core/errors/failure.ts';
import { asDecodeError, checkInputSize } from '../../core/errors/read-error.ts';
import { CompiledCache, compiled, readOptionsKey, readersKey } from '../../core/compiled.ts';
import { fastPath } from '../../core/codegen/fast-path.ts';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../../core/options.ts';
import type { ReaderContext } from '../../core/read/context.ts';
import { readersFor } from '../../core/read/read.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { bail } from '../../core/codegen/codegen.ts';
import {
  DirectCursor,
  compileDirectReader,
  directlyReadable,
  type DirectReader,
  type ReadWire,
} from './direct-reader.ts';
import { generateDirectReader } from './generate-direct-reader.ts';

/**
 * Parses bytes of one format into a plain tree, failing with internal `Failure`s. Given the
 * descriptor, it builds only what the read pass can take; `maxItems` bounds what it builds.
 */
export type TreeParser = (bytes: Uint8Array, maxDepth: number, type?: Type, maxItems?: number) => unknown;

/** The format's direct-reading primitives, and its encoding of a key (the bytes keys are compared with). */
export interface DirectFormat {
  readonly wire: ReadWire;
  readonly encodeKey: (key: string) => Uint8Array;
}

/** What `decode` needs for one descriptor and options. */
interface Plan {
  readonly maxBytes: number;
  /** Bytes to value, or a `Failure`. */
  readonly read: (bytes: Uint8Array, maxItems: number | undefined) => unknown;
}

/**
 * Builds a format's `decode`: size check, then the direct reader (bytes to value in one pass) for
 * the input lacquer's writers produce, and otherwise the format's parser followed by the read pass
 * every codec shares (the same `missing_key`, `unknown_key`, `type_mismatch` and paths as JSON).
 */
export function binaryDecoder(
  format: { readonly name: string; readonly title: string; readonly parse: TreeParser },
  direct: DirectFormat,
): {
  readonly decode: (type: Type, input: Uint8Array | string, opts?: ReadOptions) => unknown;
  /** Builds what `decode(type, _, opts)` needs, now. */
  readonly prepare: (type: Type, opts?: ReadOptions) => void;
  /** The whole input as a tree, under the same limits, for the read pass to take part by part. */
  readonly parse: (input: Uint8Array | string, opts?: ReadOptions) => unknown;
} {
  const { name, title, parse } = format;

  /** The direct reader where the descriptor has one, handing what it gives up on to the parser and the read pass. */
  const bytesReader = (type: Type, options: ResolvedReadOptions): Plan['read'] => {
    const { read } = readersFor(type, options, 'binary');
    // `maxItems` comes with each call: the compiled plan does not depend on it.
    const tree = (bytes: Uint8Array, maxItems: number | undefined): unknown =>
      read(parse(bytes, options.maxDepth, type, maxItems));
    // A descriptor the direct reader would give up on whatever the input goes straight to the parser.
    if (!directlyReadable(type, options.maxDepth)) return tree;
    const ctx: ReaderContext = { ...options, source: 'binary' };
    return fastPath({
      codec: `${name}-direct`,
      type,
      generate: () => whole(generateDirectReader(type, ctx, direct.wire, direct.encodeKey)),
      fastClosure: () => whole(compileDirectReader(type, ctx, direct.wire, direct.encodeKey)),
      fallback: tree,
    });
  };

  const plans = new CompiledCache<Plan>(`${name}-decode`, readOptionsKey, (type, opts) => {
    const options = resolveReadOptions(opts);
    return {
      maxBytes: options.maxBytes,
      read: compiled(type, `${name}-read ${readersKey(options)}`, () => bytesReader(type, options)),
    };
  });

  const prepare = (type: Type, opts?: ReadOptions): void => void plans.get(type, opts);
  const bytesOf = (input: Uint8Array | string, maxBytes: number): Uint8Array => {
    if (!(input instanceof Uint8Array))
      throw new Failure('syntax_error', `${title} input must be bytes (a Uint8Array), got ${typeof input}`);
    checkInputSize(input.byteLength, maxBytes);
    return input;
  };
  const parseWhole = (input: Uint8Array | string, opts?: ReadOptions): unknown => {
    try {
      const options = resolveReadOptions(opts);
      return parse(bytesOf(input, options.maxBytes), options.maxDepth, undefined, opts?.maxItems);
    } catch (e) {
      throw asDecodeError(e);
    }
  };
  const decode = (type: Type, input: Uint8Array | string, opts?: ReadOptions): unknown => {
    try {
      const plan = plans.get(type, opts);
      return plan.read(bytesOf(input, plan.maxBytes), opts?.maxItems);
    } catch (e) {
      throw asDecodeError(e);
    }
  };
  return { decode, prepare, parse: parseWhole };
}

/** A direct reader of a whole input under the `maxItems` budget: bails when bytes are left after the value. */
function whole(read: DirectReader): (bytes: Uint8Array, maxItems: number | undefined) => unknown {
  return (bytes, maxItems) => {
    const cursor = new DirectCursor(bytes, maxItems);
    const value = read(cursor);
    return cursor.pos === cursor.end ? value : bail();
  };
}
