import { SseItem } from '../../../core/contract/sse.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { HttpError } from '../../../core/errors/http-error.ts';
import type { ProblemDocument } from '../problem.ts';
import { onAbort } from './on-abort.ts';
import type { SequenceWriter } from './writer.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** The times that bound a stream, in milliseconds; 0: none. */
export interface StreamLimits {
  /** A heartbeat frame (SSE: a comment line) after this long without an item. */
  readonly heartbeatMs: number;
  /** The stream ends (504) after this long without an item; heartbeats do not count. */
  readonly idleMs: number;
  /** The stream ends (504) this long after its answer began. */
  readonly maxMs: number;
}

/** What the endpoint does when a stream ends other than by its source's end. */
export interface StreamEnds {
  /** The problem document of an error that ends the stream (reported where the endpoint reports). */
  fail(error: unknown): ProblemDocument;
  /** The stream ends for the server (a limit, a shutdown): told before the source's `return()`, with the reason its call's signal aborts with. */
  stopped(reason: Error): void;
}

/** Why a wait for an item ended without one (`gone`: the transport asked for no more frames). */
type Wake = 'beat' | 'idle' | 'total' | 'shutdown' | 'gone';

/** A source's `next()` that threw or rejected. */
class Thrown {
  constructor(readonly error: unknown) {}
}

type Outcome = IteratorResult<unknown> | Thrown;

/**
 * The frames of a stream answer, pulled by the transport one at a time: it asks for the next only
 * once the previous one is written and the connection takes more, so an item is pulled from the
 * method's iterator only then (a client that stops reading costs one item and the socket's
 * buffers). The first item was pulled before the answer began (`first`). Every answer ends with a
 * frame saying how: the end, or an error. `return()` (the client went away) calls the iterator's
 * own `return()`, so a generator's `finally` runs.
 *
 * While it waits for an item it writes heartbeats, and it ends the stream with a problem frame at
 * its limits (idle, total: 504) or when `shutdown` aborts (503); its call's signal aborts then, and
 * the iterator's `return()` is called. One timer per stream, armed for the earliest of these and
 * left armed when an item comes first: when it fires, it arms itself again for what is due next.
 */
export class StreamFrames implements AsyncIterableIterator<Uint8Array> {
  #first: IteratorResult<unknown> | undefined;
  /** Whether the first pull was made (from then on the shutdown is watched). */
  #pulled = false;
  /** The first frame is a heartbeat: the answer began before its first item came. */
  #opening: boolean;
  /** Whether an item was asked for and not yet taken: it is listened to once, across heartbeats. */
  #pending = false;
  /** The item asked for, once it came (or failed), until a pull takes it. */
  #arrived: Outcome | undefined;
  /** `items` while items come; `closing` once the last frame is out; `done` after it. */
  #state: 'items' | 'closing' | 'done' = 'items';
  /** Whether the framing has heartbeats and they are asked for. */
  readonly #beats: boolean;
  /** When the pending item was asked for (`performance.now()`): idle from then. */
  #asked = 0;
  /** When the current wait began: a heartbeat is due `heartbeatMs` after it. */
  #waitFrom = 0;
  /** When the total limit ends the stream. */
  readonly #endsAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  /** Ends the current wait for an item. */
  #wake: ((outcome: Outcome | Wake) => void) | undefined;
  /** A shutdown that came while no item was waited for: the next frame is its error. */
  #interrupted: Wake | undefined;
  /** Stops watching the shutdown. */
  #unwatch: (() => void) | undefined;

  constructor(
    private readonly source: AsyncIterator<unknown>,
    first: IteratorResult<unknown> | Promise<IteratorResult<unknown>>,
    private readonly framing: SequenceWriter<Type>,
    private readonly ends: StreamEnds,
    private readonly limits: StreamLimits,
    private readonly shutdown: AbortSignal | undefined,
  ) {
    this.#beats = limits.heartbeatMs > 0 && framing.heartbeat() !== undefined;
    if (first instanceof Promise) {
      this.#listen(first);
      this.#asked = performance.now();
    } else this.#first = first;
    this.#opening = first instanceof Promise && this.#beats;
    this.#endsAt = limits.maxMs > 0 ? performance.now() + limits.maxMs : Infinity;
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
    if (!this.#pulled) {
      // Watched from the first pull on: frames the transport never pulls hold no listener.
      this.#pulled = true;
      this.#watchShutdown();
    }
    if (this.#interrupted !== undefined) return this.#endFor(this.#interrupted);
    if (this.#opening) {
      // Begun before its first item: a heartbeat at once, so that the client (and every proxy) sees the stream open.
      this.#opening = false;
      return { done: false, value: this.framing.heartbeat()! };
    }
    let outcome: Outcome;
    if (this.#first !== undefined) {
      outcome = this.#first;
      this.#first = undefined;
    } else {
      if (this.#endsAt !== Infinity && performance.now() >= this.#endsAt) return this.#endFor('total');
      if (!this.#pending) this.#ask();
      const woke = this.#arrived ?? (await this.#wait());
      this.#wake = undefined;
      if (typeof woke === 'string') {
        if (woke === 'gone') return DONE;
        if (woke === 'beat') return { done: false, value: this.framing.heartbeat()! };
        return this.#endFor(woke);
      }
      this.#pending = false;
      this.#arrived = undefined;
      outcome = woke;
    }
    if (outcome instanceof Thrown) return this.#last(this.framing.error(this.ends.fail(outcome.error)));
    if (outcome.done === true) return this.#last(this.framing.end());
    try {
      const value = outcome.value;
      return {
        done: false,
        value:
          value instanceof SseItem
            ? this.framing.item(value.value as never, value.id)
            : this.framing.item(value as never),
      };
    } catch (error) {
      // An item that does not fit its descriptor ends the stream; the source is told to stop.
      void this.#stopSource();
      return this.#last(this.framing.error(this.ends.fail(error)));
    }
  }

  /**
   * The transport asks for no more frames (the client went away, the answer has no body): settles
   * at once, and so does a `next()` waiting for an item (it reads as the end), without waiting for
   * the source. The source is told to stop (`return()`, not awaited: a generator's queues behind
   * the item it is producing, which its call's aborted signal should end), and nothing of it is
   * kept here.
   */
  async return(): Promise<IteratorResult<Uint8Array>> {
    const waiting = this.#wake;
    this.#release();
    if (this.#state === 'items') void this.#stopSource();
    this.#state = 'done';
    this.#first = undefined;
    this.#pending = false;
    this.#arrived = undefined;
    this.#wake = undefined;
    waiting?.('gone');
    return DONE;
  }

  /** Asks the source for its next item (a source whose `next()` throws fails as one that rejects). */
  #ask(): void {
    if (this.limits.idleMs > 0) this.#asked = performance.now();
    let pending: Promise<IteratorResult<unknown>>;
    try {
      pending = Promise.resolve(this.source.next());
    } catch (error) {
      pending = Promise.reject(error);
    }
    this.#listen(pending);
  }

  /**
   * Listens to the item asked for, once, whatever the number of waits (and heartbeats) before it
   * comes. Its failure is caught here, so that an item left behind by a limit never rejects unheard.
   */
  #listen(pending: Promise<IteratorResult<unknown>>): void {
    this.#pending = true;
    pending.then(this.#came, this.#thrown);
  }

  /** The item asked for came: kept for the pull that takes it, and given to the wait under way. */
  readonly #came = (outcome: Outcome): void => {
    // Let go of already (the transport asked for no more, or a limit ended the stream).
    if (this.#state !== 'items' || !this.#pending) return;
    this.#arrived = outcome;
    this.#wake?.(outcome);
  };
  readonly #thrown = (error: unknown): void => this.#came(new Thrown(error));

  /** The item asked for, or why the wait ended before it came. */
  #wait(): Promise<Outcome | Wake> {
    const woken = new Promise<Outcome | Wake>(this.#setWake);
    const now = this.#beats || this.#timer === undefined ? performance.now() : 0;
    if (this.#beats) this.#waitFrom = now;
    // Armed already for what comes first (a limit, the last wait's heartbeat): it re-arms itself when it fires.
    if (this.#timer === undefined) this.#arm(now);
    return woken;
  }

  /** Made once per stream rather than per wait. */
  readonly #setWake = (resolve: (outcome: Outcome | Wake) => void): void => {
    this.#wake = resolve;
  };

  /** Arms the timer for the earliest of the next heartbeat, the idle limit and the total limit, unless it fires before. */
  #arm(now: number): void {
    const { heartbeatMs, idleMs } = this.limits;
    let due = this.#endsAt;
    if (idleMs > 0) due = Math.min(due, this.#asked + idleMs);
    if (this.#beats) due = Math.min(due, this.#waitFrom + heartbeatMs);
    if (due === Infinity || this.#timerAt <= due) return;
    clearTimeout(this.#timer);
    this.#timerAt = due;
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, due - now));
    // A stream's own connection keeps a process alive; its timer need not.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    // Not waiting for an item (the transport is writing one): the next wait arms it again.
    const wake = this.#wake;
    if (wake === undefined) return;
    const now = performance.now();
    if (now >= this.#endsAt) wake('total');
    else if (this.limits.idleMs > 0 && now >= this.#asked + this.limits.idleMs) wake('idle');
    else if (this.#beats && now >= this.#waitFrom + this.limits.heartbeatMs) wake('beat');
    else this.#arm(now);
  }

  #watchShutdown(): void {
    const shutdown = this.shutdown;
    if (shutdown === undefined) return;
    if (shutdown.aborted) this.#interrupted = 'shutdown';
    else this.#unwatch = onAbort(shutdown, () => this.#interrupt('shutdown'));
  }

  #interrupt(why: Wake): void {
    if (this.#state !== 'items') return;
    // Kept too: a wait that has just ended with an item takes no wake, and the next pull ends the stream.
    this.#interrupted ??= why;
    this.#wake?.(why);
  }

  /** Ends the stream for the server: the call's signal aborts, the source is told to stop, the last frame is the problem. */
  #endFor(why: Wake): IteratorResult<Uint8Array> {
    const { idleMs, maxMs } = this.limits;
    const [status, detail, reason] =
      why === 'idle'
        ? [
            504,
            `the stream had no item for ${idleMs} ms (streamIdleMs)`,
            new DOMException(`stream idle for ${idleMs} ms`, 'TimeoutError'),
          ]
        : why === 'total'
          ? [
              504,
              `the stream reached its limit of ${maxMs} ms (streamMaxMs)`,
              new DOMException(`stream ended at its limit of ${maxMs} ms`, 'TimeoutError'),
            ]
          : [503, 'the server is shutting down', new DOMException('the server is shutting down', 'AbortError')];
    try {
      this.ends.stopped(reason);
    } catch {
      // Aborting a signal runs the method's listeners: theirs to fail, not the stream's.
    }
    void this.#stopSource();
    return this.#last(this.framing.error(this.ends.fail(new HttpError(status, detail, { cause: reason }))));
  }

  #last(frame: Uint8Array): IteratorResult<Uint8Array> {
    this.#release();
    this.#state = 'closing';
    return { done: false, value: frame };
  }

  /** No more waits: the timer and the shutdown listener go. */
  #release(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#unwatch?.();
    this.#unwatch = undefined;
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
