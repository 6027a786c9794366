import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { ANY_VALUE } from '../any-value.ts';
import { atItem, cutError, type SequenceReader, type StreamEvent } from './events.ts';
import { problemFromValue } from './problem-value.ts';
import { Tail } from './tail.ts';

/**
 * What every stream reader shares: how it decodes items, its limits, the unconsumed bytes, the end
 * of the input, the items counted.
 */
export abstract class ReaderBase<T extends Type> implements SequenceReader<Infer<T>> {
  items = 0;
  protected readonly tail = new Tail();
  /** `finish` was called: no more bytes come. */
  protected ended = false;

  constructor(
    protected readonly codec: Codec,
    protected readonly type: T,
    protected readonly opts: Opts | undefined,
    protected readonly maxItemBytes: number,
    protected readonly endAtEof: boolean,
  ) {}

  get buffered(): number {
    return this.tail.size;
  }

  push(chunk: Uint8Array): void {
    if (this.ended) throw new TypeError('lacquer: push() after finish()');
    this.tail.push(chunk);
  }

  finish(): void {
    this.ended = true;
  }

  abstract next(): StreamEvent<Infer<T>> | undefined;

  /** The item `payload` encodes, counted; its errors name the item's index. */
  protected item(payload: Uint8Array | string): { readonly kind: 'item'; readonly value: Infer<T> } {
    try {
      const value = this.codec.decode(this.type, payload, this.opts) as Infer<T>;
      this.items++;
      return { kind: 'item', value };
    } catch (e) {
      throw atItem(e, this.items);
    }
  }

  /** The error a stream ends with, its problem document encoded in `payload`. */
  protected problem(payload: Uint8Array | string): StreamEvent<Infer<T>> {
    try {
      return { kind: 'error', problem: problemFromValue(this.codec.decode(ANY_VALUE, payload, this.opts)) };
    } catch (e) {
      throw atItem(e, this.items);
    }
  }
}

/** Where a reader of marked sequences is: among the items, after the end marker (the outcome comes next), or done. */
export const ITEMS = 0;
export const OUTCOME = 1;
export const DONE = 2;

/**
 * A reader of the sequences that end with a marker, then the outcome written out: the marker again
 * for a clean end, or the problem document (JSON Lines, CBOR and MessagePack sequences).
 */
export abstract class MarkedReader<T extends Type> extends ReaderBase<T> {
  protected state = ITEMS;

  /** The end marker was read: the outcome comes next (`undefined`), or, the second time, the clean end. */
  protected markerRead(): StreamEvent<Infer<T>> | undefined {
    if (this.state === ITEMS) {
      this.state = OUTCOME;
      return undefined;
    }
    this.state = DONE;
    return { kind: 'end' };
  }

  /** A frame's value: an item before the marker, the problem after it. */
  protected value(payload: Uint8Array | string): StreamEvent<Infer<T>> {
    if (this.state !== OUTCOME) return this.item(payload);
    this.state = DONE;
    return this.problem(payload);
  }

  /** The input ended between frames: done, a clean end where `endAtEof` allows it, else a cut. */
  protected atEof(): StreamEvent<Infer<T>> | undefined {
    if (this.state === DONE) return undefined;
    if (!this.endAtEof) throw cutError(this.items, false);
    this.state = DONE;
    return { kind: 'end' };
  }
}
