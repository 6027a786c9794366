import { Failure } from '../../core/errors/failure.ts';
import { asDecodeError, checkInputSize } from '../../core/errors/read-error.ts';
import type { Reader, ReaderContext } from '../../core/read/context.ts';
import type { ReadOptions, ResolvedReadOptions } from '../../core/options.ts';
import { prepareRead } from '../../core/read/read.ts';
import type { Type } from '../../core/types/type.ts';
import { canGenerateCode } from '../../core/util/codegen.ts';
import { DirectCursor, compileDirectReader, directlyReadable, type DirectReader, type ReadWire } from './direct-reader.ts';
import { generateDirectReader } from './generate-direct-reader.ts';

/** Parses bytes of one format into a plain tree, failing with internal `Failure`s. */
export type TreeParser = (bytes: Uint8Array, maxDepth: number) => unknown;

/** The format's direct-reading primitives, and its encoding of a key (the bytes keys are compared with). */
export interface DirectFormat {
  readonly wire: ReadWire;
  readonly encodeKey: (key: string) => Uint8Array;
}

/**
 * Builds a format's `decode`: size check, then the direct reader (bytes to value in one pass) for
 * the input lacquer's writers produce, and otherwise the format's parser followed by the read pass
 * every codec shares (the same `missing_key`, `unknown_key`, `type_mismatch` and paths as JSON).
 */
export function binaryDecoder(format: string, parse: TreeParser, direct: DirectFormat): (type: Type, input: Uint8Array | string, opts?: ReadOptions) => unknown {
  // One direct reader per compiled shared reader: both depend on the same descriptor and options.
  // `null` for a descriptor the direct reader would give up on whatever the input.
  const directReaders = new WeakMap<Reader, DirectReader | null>();
  // The last pair looked up: a service decodes one descriptor many times in a row.
  let lastRead: Reader | undefined;
  let lastFast: DirectReader | null = null;
  const directReader = (type: Type, options: ResolvedReadOptions, read: Reader): DirectReader | null => {
    if (read === lastRead) return lastFast;
    let fast = directReaders.get(read);
    if (fast === undefined) {
      const ctx: ReaderContext = { ...options, source: 'binary' };
      if (!directlyReadable(type, options.maxDepth)) fast = null;
      else if (canGenerateCode()) fast = generateDirectReader(type, ctx, direct.wire, direct.encodeKey);
      else fast = compileDirectReader(type, ctx, direct.wire, direct.encodeKey);
      directReaders.set(read, fast);
    }
    lastRead = read;
    lastFast = fast;
    return fast;
  };
  return (type, input, opts) => {
    const { options, read } = prepareRead(type, opts, 'binary');
    try {
      if (!(input instanceof Uint8Array)) throw new Failure('syntax_error', `${format} input must be bytes (a Uint8Array), got ${typeof input}`);
      checkInputSize(input.byteLength, options.maxBytes);
      const fast = directReader(type, options, read);
      if (fast !== null) {
        try {
          const cursor = new DirectCursor(input);
          const value = fast(cursor);
          if (cursor.pos === cursor.end) return value;
        } catch {
          // The direct reader gave up: the parser and the shared read pass decide.
        }
      }
      return read(parse(input, options.maxDepth));
    } catch (e) {
      throw asDecodeError(e);
    }
  };
}
