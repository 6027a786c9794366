import type { Type } from '../../../core/descriptors/type.ts';
import type { ProblemDocument } from '../problem.ts';
import type { SequenceWriter } from './writer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The frames of a stream answer, pulled by the transport one at a time: it asks for the next only
 * once the previous one is written and the connection takes more, so an item is pulled from the
 * method's iterator only then (a client that stops reading costs one item and the socket's
 * buffers). The first item was pulled before the answer began (`first`). Every answer ends with a
 * frame saying how: the end, or an error. `return()` (the client went away, the server stops)
 * calls the iterator's own `return()`, so a generator's `finally` runs.
 */
export class StreamFrames implements AsyncIterableIterator<Uint8Array> {
  #first: IteratorResult<unknown> | undefined;
  /** An item asked for and not yet come, kept across heartbeats. */
  #pending: Promise<IteratorResult<unknown>> | undefined;
  /** `items` while items come; `closing` once the last frame is out; `done` after it. */
  #state: 'items' | 'closing' | 'done' = 'items';

  constructor(
    private readonly source: AsyncIterator<unknown>,
    first: IteratorResult<unknown>,
    private readonly framing: SequenceWriter<Type>,
    /** The problem document of an error that ends the stream (reported where the endpoint reports). */
    private readonly fail: (error: unknown) => ProblemDocument,
    /** A heartbeat frame after this many milliseconds without an item (0: none). */
    private readonly heartbeatMs: number,
  ) {
    this.#first = first;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#state === 'done') return DONE;
    if (this.#state === 'closing') {
      this.#state = 'done';
      return DONE;
    }
    let result: IteratorResult<unknown>;
    try {
      if (this.#first !== undefined) {
        result = this.#first;
        this.#first = undefined;
      } else {
        const pending = (this.#pending ??= this.source.next());
        const heartbeat = this.heartbeatMs > 0 ? this.framing.heartbeat() : undefined;
        if (heartbeat !== undefined && (await idle(pending, this.heartbeatMs)) === IDLE) return { done: false, value: heartbeat };
        result = await pending;
        this.#pending = undefined;
      }
    } catch (error) {
      this.#pending = undefined;
      return this.#last(this.framing.error(this.fail(error)));
    }
    if (result.done === true) return this.#last(this.framing.end());
    try {
      return { done: false, value: this.framing.item(result.value as never) };
    } catch (error) {
      // An item that does not fit its descriptor ends the stream; the source is told to stop.
      void this.#stopSource();
      return this.#last(this.framing.error(this.fail(error)));
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    if (this.#state === 'items') await this.#stopSource();
    this.#state = 'done';
    return DONE;
  }

  #last(frame: Uint8Array): IteratorResult<Uint8Array> {
    this.#state = 'closing';
    return { done: false, value: frame };
  }

  async #stopSource(): Promise<void> {
    this.#state = 'done';
    try {
      await this.source.return?.();
    } catch {
      // A source failing as it stops has nothing left to tell anyone.
    }
  }
}

const IDLE = Symbol('idle');

/** `IDLE` when `pending` has not settled within `ms`, else `undefined` once it has (either way). */
function idle(pending: Promise<unknown>, ms: number): Promise<typeof IDLE | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = new Promise<typeof IDLE>((resolve) => {
    timer = setTimeout(() => resolve(IDLE), ms);
  });
  const settled = pending.then(() => undefined, () => undefined);
  return Promise.race([settled, beat]).finally(() => clearTimeout(timer));
}
