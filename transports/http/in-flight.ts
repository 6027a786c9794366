/** A call linked into its server's {@link InFlightCalls} while its handler runs. */
export interface InFlight {
  /** When the call is due (`performance.now()`, never negative); -1 when not in the list. */
  deadline: number;
  earlier: InFlight | undefined;
  later: InFlight | undefined;
}

/**
 * The calls of one server whose handler is running, in the order they started, which is deadline
 * order (they share one timeout). A list threaded through the calls themselves: adding and removing
 * allocate nothing, where a `Map` churned by every request keeps reallocating its table.
 */
export class InFlightCalls<C extends InFlight> {
  #first: C | undefined;
  #last: C | undefined;

  /** Adds `call`, due at `deadline` (after every call in the list). */
  add(call: C, deadline: number): void {
    call.deadline = deadline;
    call.earlier = this.#last;
    call.later = undefined;
    if (this.#last === undefined) this.#first = call;
    else this.#last.later = call;
    this.#last = call;
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
  }

  /** The call due first. */
  get first(): C | undefined {
    return this.#first;
  }
}
