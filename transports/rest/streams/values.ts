import type { Codec, ItemScanner } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import { DEFAULT_MAX_DEPTH, type Opts } from '../../../core/options.ts';
import { t } from '../../../core/descriptors/index.ts';
import { encodeProblem, type ProblemDocument } from '../problem.ts';
import { afterEnd, atItem, cutError, itemTooLarge, type SequenceReader, type StreamEvent } from './events.ts';
import { problemFromValue } from './problem-value.ts';
import { Tail } from './tail.ts';
import { unframable, utf8 } from './text.ts';
import type { SequenceWriter } from './writer.ts';

/** A binary codec's sequence members, checked present. */
interface Framing {
  readonly end: Uint8Array;
  readonly scanner: (maxDepth: number) => ItemScanner;
}

/** The sequence members of a binary codec; throws `TypeError` when it lacks them. */
export function valueFraming(codec: Codec): Framing {
  const { sequenceEnd, itemScanner } = codec;
  if (sequenceEnd === undefined || sequenceEnd.length === 0 || itemScanner === undefined) {
    throw new TypeError(`lacquer: the ${codec.name} codec gives no sequenceEnd and itemScanner, which a sequence of its values needs`);
  }
  return { end: sequenceEnd, scanner: (maxDepth) => itemScanner.call(codec, maxDepth) };
}

/**
 * A sequence of a binary codec's values (`application/cbor-seq`, `application/msgpack-seq`): the
 * items one after another, then the codec's end value (CBOR's `undefined`), followed by the end
 * value again for a clean end, or by the problem document for an error.
 */
export function valuesWriter<T extends Type>(mediaType: string, codec: Codec, type: T, opts: Opts | undefined): SequenceWriter<T> {
  const { end } = valueFraming(codec);
  const first = end[0]!;
  return {
    mediaType,
    item(value: InferInput<T>): Uint8Array {
      const bytes = codec.encode(type, value, opts);
      if (typeof bytes === 'string') throw new TypeError(`lacquer: the ${codec.name} codec writes text; its sequence needs bytes`);
      // The codecs never write their end value as an item; a user codec is checked all the same.
      if (bytes[0] === first && startsWith(bytes, end)) throw unframable(`the ${codec.name} value is the end of the sequence`);
      return bytes;
    },
    end: () => concat(end, end),
    error(problem: ProblemDocument): Uint8Array {
      const doc = encodeProblem(codec, problem);
      return concat(end, typeof doc === 'string' ? utf8.encode(doc) : doc);
    },
    heartbeat: () => undefined,
  };
}

const ITEMS = 0;
const OUTCOME = 1;
const DONE = 2;

/** Reads a sequence of a binary codec's values as {@link valuesWriter} writes them. */
export function valuesReader<T extends Type>(
  codec: Codec, type: T, opts: Opts | undefined, maxItemBytes: number, endAtEof: boolean,
): SequenceReader<Infer<T>> {
  const { end: marker, scanner: makeScanner } = valueFraming(codec);
  const scanner = makeScanner(opts?.maxDepth ?? DEFAULT_MAX_DEPTH);
  const first = marker[0]!;
  const tail = new Tail();
  let state = ITEMS;
  let items = 0;
  let ended = false;
  /** Whether the scanner is inside a value (so no end marker can start here). */
  let inValue = false;

  const cut = (): StreamEvent<Infer<T>> | undefined => {
    if (state === DONE) return undefined;
    if (inValue || tail.size > 0 || !endAtEof) throw cutError(items, inValue || tail.size > 0);
    state = DONE;
    return { kind: 'end' };
  };

  return {
    get items() {
      return items;
    },
    push(chunk: Uint8Array): void {
      if (ended) throw new TypeError('lacquer: push() after finish()');
      tail.push(chunk);
    },
    next(): StreamEvent<Infer<T>> | undefined {
      for (;;) {
        const { bytes, start } = tail;
        const end = bytes.length;
        if (start === end) return ended ? cut() : undefined;
        if (state === DONE) throw afterEnd();
        if (!inValue && bytes[start] === first) {
          if (end - start < marker.length) {
            if (ended) return cut();
            tail.keep();
            return undefined;
          }
          if (startsWith(bytes.subarray(start, start + marker.length), marker)) {
            tail.start = start + marker.length;
            if (state === OUTCOME) {
              state = DONE;
              return { kind: 'end' };
            }
            state = OUTCOME;
            continue;
          }
        }
        let stop: number | undefined;
        try {
          stop = scanner.scan(bytes, start, end);
        } catch (e) {
          throw atItem(e, items);
        }
        if (stop === undefined) {
          inValue = true;
          if (scanner.needed > maxItemBytes) throw itemTooLarge(items, maxItemBytes);
          if (ended) return cut();
          tail.keep();
          return undefined;
        }
        inValue = false;
        if (stop - start > maxItemBytes) throw itemTooLarge(items, maxItemBytes);
        tail.start = stop;
        const value = bytes.subarray(start, stop);
        try {
          if (state === OUTCOME) {
            state = DONE;
            return { kind: 'error', problem: problemFromValue(codec.decode(t.unknown(), value, opts)) };
          }
          const item = codec.decode(type, value, opts);
          items++;
          return { kind: 'item', value: item };
        } catch (e) {
          throw atItem(e, items);
        }
      }
    },
    finish(): void {
      ended = true;
    },
  };
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
