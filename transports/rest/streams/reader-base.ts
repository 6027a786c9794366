import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import type { SequenceReader, StreamEvent } from './events.ts';
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

  push(chunk: Uint8Array): void {
    if (this.ended) throw new TypeError('lacquer: push() after finish()');
    this.tail.push(chunk);
  }

  finish(): void {
    this.ended = true;
  }

  abstract next(): StreamEvent<Infer<T>> | undefined;
}
