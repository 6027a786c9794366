/** What {@link sse} takes beside the value. */
export interface SseOptions {
  /**
   * The event's `id`: an `EventSource` sends the last one it received as `Last-Event-ID` when it
   * reconnects (`call.lastEventId`). Any text without a line break or NUL.
   */
  readonly id?: string;
}

/**
 * An item of a stream with what Server-Sent Events say of it beyond its value: made by {@link sse},
 * yielded by a stream method in place of the bare value.
 */
export class SseItem<T> {
  constructor(
    readonly value: T,
    readonly id: string | undefined,
  ) {
    Object.freeze(this);
  }
}

/** No line break or NUL: an SSE field ends at a line break, and a reader drops an id holding NUL. */
const FRAMABLE_ID = /^[^\r\n\0]*$/;

/**
 * An item with its SSE event id: `yield sse(tick, { id: String(tick.n) })` in a stream method. A
 * stream answered as `text/event-stream` writes `id: <id>` before the item's data; the other
 * framings (JSON Lines, CBOR and MessagePack sequences) have no ids and write the value alone.
 * Throws a `TypeError` for an id that is not a string, or holds a line break or NUL.
 */
export function sse<T>(value: T, options: SseOptions = {}): SseItem<T> {
  const id = options.id;
  if (id !== undefined) {
    if (typeof id !== 'string') throw new TypeError(`sse(): the id must be a string, got ${typeof id}`);
    if (!FRAMABLE_ID.test(id)) throw new TypeError('sse(): the id must not hold a line break or NUL');
  }
  return new SseItem(value, id);
}
