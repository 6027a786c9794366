import type { SequenceReader, StreamEvent } from './events.ts';
import { Tail } from './tail.ts';

/** What every stream reader shares: the unconsumed bytes, the end of the input, the items counted. */
export abstract class ReaderBase<T> implements SequenceReader<T> {
  items = 0;
  protected readonly tail = new Tail();
  /** `finish` was called: no more bytes come. */
  protected ended = false;

  push(chunk: Uint8Array): void {
    if (this.ended) throw new TypeError('lacquer: push() after finish()');
    this.tail.push(chunk);
  }

  finish(): void {
    this.ended = true;
  }

  abstract next(): StreamEvent<T> | undefined;
}
