import type { ProblemDocument } from '../problem.ts';

type Timer = ReturnType<typeof setTimeout>;

/**
 * The longest a timer waits (2^31 - 1 ms, about 24.8 days): runtimes fire a longer one at once. A
 * longer timeout is waited for in steps of this.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A call linked into its server's {@link Deadlines} while its handler runs. */
export interface Due {
  /** When the call is due (`performance.now()`); -1 when not in the list. */
  deadline: number;
  earlier: Due | undefined;
  later: Due | undefined;
  /** On workerd, the call's own timer. */
  timer: Timer | undefined;
}

/** A call a server can give up on (its deadline passed, or a shutdown): answered with `doc`, its signal aborted with `reason`. */
export interface Abandonable extends Due {
  abandon(doc: ProblemDocument, reason: Error): void;
}

/**
 * The calls of one server (an `HttpServer`, a fetch handler) whose handler is running, each given
 * up on (`giveUp`) once `timeoutMs` have passed without its removal. All calls share one timeout,
 * so the order they came in is deadline order: a list threaded through the calls themselves, where
 * adding and removing allocate nothing, and one timer for them all, armed for the earliest
 * deadline. A removal leaves the timer armed: when it fires it re-arms for the next deadline, or
 * stops when no call is left, so steady traffic costs one timer per `timeoutMs`, not one per call.
 *
 * workerd ties a timer to the request that set it (it may not outlive that request), so there each
 * call gets a timer of its own.
 */
export class Deadlines<C extends Due> {
  #first: C | undefined;
  #last: C | undefined;
  #timer: Timer | undefined;
  readonly #perCall = isWorkerd();

  /** `timeoutMs` 0: calls are never due, but a shutdown can still give up on them. */
  constructor(
    readonly timeoutMs: number,
    readonly giveUp: (call: C) => void,
  ) {}

  /** Adds `call`, due `timeoutMs` from now. Kept small: it runs for every request. */
  add(call: C): void {
    call.deadline = this.timeoutMs === 0 ? Infinity : performance.now() + this.timeoutMs;
    const last = this.#last;
    call.earlier = last;
    call.later = undefined;
    if (last === undefined) this.#first = call;
    else last.later = call;
    this.#last = call;
    if (this.#timer === undefined && this.timeoutMs !== 0) this.#watch(call);
  }

  /** Arms the timer for `call` (its own, on workerd), or the one for them all. */
  #watch(call: C): void {
    if (this.#perCall) call.timer = setTimeout(() => this.#ownTimer(call), Math.min(this.timeoutMs, LONGEST_TIMER_MS));
    else this.#timer = this.#arm(this.timeoutMs);
  }

  /** A call's own timer fired: it is due, or (a timeout longer than a timer waits) armed again. */
  #ownTimer(call: C): void {
    const left = call.deadline - performance.now();
    if (left <= 0) this.#due(call);
    else call.timer = setTimeout(() => this.#ownTimer(call), Math.min(left, LONGEST_TIMER_MS));
  }

  /** Takes `call` out; nothing when it is not in the list. */
  remove(call: C): void {
    if (call.deadline === -1) return;
    call.deadline = -1;
    const { earlier, later } = call;
    if (earlier === undefined) this.#first = later as C | undefined;
    else earlier.later = later;
    if (later === undefined) this.#last = earlier as C | undefined;
    else later.earlier = earlier;
    call.earlier = call.later = undefined;
    if (call.timer !== undefined) {
      clearTimeout(call.timer);
      call.timer = undefined;
    }
  }

  /**
   * Takes out every call due at or before `until` (`Infinity`: all, as a shutdown does) and gives
   * up on each with `giveUp` (the timeout's by default).
   */
  giveUpUntil(until: number, giveUp: (call: C) => void = this.giveUp): void {
    for (let call = this.#first; call !== undefined && call.deadline <= until; call = this.#first)
      this.#due(call, giveUp);
  }

  #due(call: C, giveUp: (call: C) => void = this.giveUp): void {
    this.remove(call);
    try {
      giveUp(call);
    } catch (error) {
      console.error('lacquer: internal error giving up on a call', error);
    }
  }

  #arm(ms: number): Timer {
    const timer = setTimeout(() => this.#sweep(), Math.min(ms, LONGEST_TIMER_MS));
    // A timer must not keep a process alive that has nothing else to do (Node, Bun, Deno).
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #sweep(): void {
    this.#timer = undefined;
    const now = performance.now();
    this.giveUpUntil(now);
    if (this.#first !== undefined) this.#timer = this.#arm(Math.max(1, this.#first.deadline - now));
  }
}

/** Cloudflare's runtime names itself in `navigator.userAgent`. */
function isWorkerd(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
}
