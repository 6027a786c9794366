import type { Codec, ItemScanner } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import { DEFAULT_MAX_DEPTH, type Opts } from '../../../core/options.ts';
import { encodeProblem, type ProblemDocument } from '../problem.ts';
import { afterEnd, atItem, cutError, itemTooLarge, type StreamEvent } from './events.ts';
import { DONE, MarkedReader } from './reader-base.ts';
import { unframable, utf8 } from './text.ts';
import type { SequenceWriter } from './writer.ts';
import { concatBytes } from './bytes.ts';

/** A binary codec's sequence members, checked present. */
interface Framing {
  readonly end: Uint8Array;
  readonly scanner: (maxDepth: number) => ItemScanner;
}

/** The sequence members of a binary codec; throws `TypeError` when it lacks them. */
export function valueFraming(codec: Codec): Framing {
  const { sequenceEnd, itemScanner } = codec;
  if (sequenceEnd === undefined || sequenceEnd.length === 0 || itemScanner === undefined) {
    throw new TypeError(
      `lacquer: the ${codec.name} codec gives no sequenceEnd and itemScanner, which a sequence of its values needs`,
    );
  }
  return { end: sequenceEnd.slice(), scanner: (maxDepth) => itemScanner.call(codec, maxDepth) };
}

/**
 * A sequence of a binary codec's values (`application/cbor-seq`, `application/msgpack-seq`): the
 * items one after another, then the codec's end value (CBOR's `undefined`), followed by the end
 * value again for a clean end, or by the problem document for an error.
 */
export function valuesWriter<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  opts: Opts | undefined,
): SequenceWriter<T> {
  const { end } = valueFraming(codec);
  const first = end[0]!;
  return {
    mediaType,
    item(value: InferInput<T>): Uint8Array {
      const bytes = codec.encode(type, value, opts);
      if (typeof bytes === 'string')
        throw new TypeError(`lacquer: the ${codec.name} codec writes text; its sequence needs bytes`);
      // The codecs never write their end value as an item; a user codec is checked all the same.
      if (bytes[0] === first && startsWith(bytes, end))
        throw unframable(`the ${codec.name} value is the end of the sequence`);
      return bytes;
    },
    end: () => concatBytes([end, end]),
    error(problem: ProblemDocument): Uint8Array {
      const doc = encodeProblem(codec, problem);
      return concatBytes([end, typeof doc === 'string' ? utf8.encode(doc) : doc]);
    },
    heartbeat: () => undefined,
  };
}

/** Reads a sequence of a binary codec's values as {@link valuesWriter} writes them. */
export class ValuesReader<T extends Type> extends MarkedReader<T> {
  private readonly marker: Uint8Array;
  private readonly scanner: ItemScanner;
  /** Whether the scanner is inside a value (where no end marker can start). */
  private inValue = false;

  constructor(codec: Codec, type: T, opts: Opts | undefined, maxItemBytes: number, endAtEof: boolean) {
    super(codec, type, opts, maxItemBytes, endAtEof);
    const framing = valueFraming(codec);
    this.marker = framing.end;
    this.scanner = framing.scanner(opts?.maxDepth ?? DEFAULT_MAX_DEPTH);
  }

  next(): StreamEvent<Infer<T>> | undefined {
    const { tail, marker } = this;
    for (;;) {
      const { bytes, start } = tail;
      const end = bytes.length;
      if (start === end) return this.ended ? this.atEof() : undefined;
      if (this.state === DONE) throw afterEnd(this.items);
      if (!this.inValue && bytes[start] === marker[0]) {
        if (end - start < marker.length) return this.waitOrCut();
        if (startsWith(bytes.subarray(start, start + marker.length), marker)) {
          tail.start = start + marker.length;
          const ended = this.markerRead();
          if (ended !== undefined) return ended;
          continue;
        }
      }
      let stop: number | undefined;
      try {
        stop = this.scanner.scan(bytes, start, end);
      } catch (e) {
        throw atItem(e, this.items);
      }
      if (stop === undefined) {
        this.inValue = true;
        if (this.scanner.needed > this.maxItemBytes) throw itemTooLarge(this.items, this.maxItemBytes);
        return this.waitOrCut();
      }
      this.inValue = false;
      if (stop - start > this.maxItemBytes) throw itemTooLarge(this.items, this.maxItemBytes);
      tail.start = stop;
      return this.value(bytes.subarray(start, stop));
    }
  }

  /** Bytes of an unfinished value or marker: more to wait for, or, once the input has ended, a cut. */
  private waitOrCut(): undefined {
    if (this.ended) throw cutError(this.items, true);
    this.tail.keep();
    return undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
