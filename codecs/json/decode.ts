import type { ParsedMessage } from '../../core/codec.ts';
import { Failure } from '../../core/errors/failure.ts';
import { asDecodeError, checkInputSize } from '../../core/errors/read-error.ts';
import { CompiledCache, compiled, readOptionsKey, readersKey } from '../../core/compiled.ts';
import { fastPath } from '../../core/codegen/fast-path.ts';
import { itemLimit, resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from '../../core/options.ts';
import { NeedsExactNumbers, restartBytesBudget, textBytesBudget } from '../../core/read/read-scalars.ts';
import { readersFor } from '../../core/read/read.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { readShortAscii } from '../binary/utf8.ts';
import { generateDirectReader } from './generate-direct-reader.ts';
import { checkJsonItems, parseExact } from './parse-exact.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * Texts up to this many bytes are read by hand when they are ASCII (a scalar argument, say): the
 * call into the decoder costs more. Longer ones gain nothing: V8 builds a string of 13 or more
 * characters as a rope, which `JSON.parse` flattens first.
 */
const SHORT_TEXT = 12;

/** What `json.decode` needs for one descriptor and options. */
interface Plan {
  readonly maxBytes: number;
  /** Text to value, or a `Failure`. */
  readonly read: (text: string, maxItems: number | undefined) => unknown;
}

const plans = new CompiledCache<Plan>('json-decode', readOptionsKey, (type, opts) => {
  const options = resolveReadOptions(opts);
  return {
    maxBytes: options.maxBytes,
    read: compiled(type, `json-read ${readersKey(options)}`, () => textReader(type, options)),
  };
});

/**
 * `json.decode`. Three ways to the value, fastest first: the descriptor's direct reader (64-bit
 * descriptors, common shape); `JSON.parse` and the generated reader; and, when a 64-bit member
 * meets an integer beyond 2^53 whose digits `JSON.parse` may have lost, the exact parser and the
 * closure reader. Each later way gives the same value, and is the one that gives the errors.
 */
export function decodeJson(type: Type, input: Uint8Array | string, opts: ReadOptions | undefined): unknown {
  try {
    const plan = plans.get(type, opts);
    const text = toText(input, plan.maxBytes);
    // Arrays and objects are counted before anything is built, whatever path reads the text.
    checkJsonItems(text, opts?.maxItems);
    return plan.read(text, opts?.maxItems);
  } catch (e) {
    throw asDecodeError(e);
  }
}

/**
 * `json.parseMessage`: the text checked as `decode` checks it (size, items) and parsed by
 * `JSON.parse`; the exact parser runs only for a part that needs it.
 */
export function parseJsonMessage(input: Uint8Array | string, opts: ReadOptions | undefined): ParsedMessage {
  try {
    const options = resolveReadOptions(opts);
    const text = toText(input, options.maxBytes);
    checkJsonItems(text, opts?.maxItems);
    return new JsonMessage(parseFast(text), text, options.maxDepth);
  } catch (e) {
    throw asDecodeError(e);
  }
}

/** A JSON message: its tree from `JSON.parse`, and its exact parse made when first asked for. */
class JsonMessage implements ParsedMessage {
  readonly source = 'json';
  #exact: unknown;
  #parsed = false;

  constructor(
    readonly tree: unknown,
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  exact(): unknown {
    if (!this.#parsed) {
      this.#exact = parseExact(this.text, this.maxDepth);
      this.#parsed = true;
    }
    return this.#exact;
  }
}

/** Builds what `decodeJson(type, _, opts)` needs, now. */
export function prepareJsonDecode(type: Type, opts: ReadOptions | undefined): void {
  plans.get(type, opts);
}

/** The direct reader where the descriptor has one, handing what it bails on to the general path. */
function textReader(type: Type, options: ResolvedReadOptions): Plan['read'] {
  const { read, closures } = readersFor(type, options, 'json');
  // The general path: `JSON.parse` and the reader, or the exact parser when digits were lost.
  // `maxItems` comes with each call: the compiled plan does not depend on it.
  const general = (text: string, maxItems: number | undefined): unknown => {
    textBytesBudget.start = textBytesBudget.left = itemLimit(maxItems, text.length);
    try {
      return read(parseFast(text));
    } catch (e) {
      if (!(e instanceof NeedsExactNumbers)) throw e;
      restartBytesBudget();
      return closures(parseExact(text, options.maxDepth));
    } finally {
      textBytesBudget.start = textBytesBudget.left = Infinity;
    }
  };
  // Byte strings are counted as the read pass decodes them (the direct reader takes no bytes).
  return fastPath({
    codec: 'json-direct',
    type,
    generate: () => generateDirectReader(type, options.maxDepth),
    fallback: general,
  });
}

function toText(input: Uint8Array | string, maxBytes: number): string {
  checkInputSize(typeof input === 'string' ? input.length : input.byteLength, maxBytes);
  if (typeof input === 'string') return input;
  if (input.byteLength <= SHORT_TEXT) {
    const ascii = readShortAscii(input, 0, input.byteLength);
    if (ascii !== undefined) return ascii;
  }
  try {
    return utf8.decode(input);
  } catch {
    throw new Failure('syntax_error', 'invalid JSON: the bytes are not valid UTF-8');
  }
}

function parseFast(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Failure('syntax_error', `invalid JSON: ${(e as Error).message}`);
  }
}
