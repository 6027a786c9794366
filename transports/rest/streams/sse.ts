import type { Codec } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { t } from '../../../core/descriptors/index.ts';
import type { ProblemDocument } from '../problem.ts';
import { afterEnd, atItem, cutError, itemTooLarge, type SequenceReader, type StreamEvent } from './events.ts';
import { problemFromValue } from './problem-value.ts';
import { Tail } from './tail.ts';
import { isBlank, itemText, problemText, unframable, utf8, utf8Frame } from './text.ts';
import type { SequenceWriter } from './writer.ts';

/** `text/event-stream`. */
export const SSE = 'text/event-stream';

const LF = 0x0a;
const CR = 0x0d;
/** What a line may hold beyond an event's data: its field name (`data: `). */
const FIELD_BYTES = 16;

/**
 * Server-Sent Events: each item a `message` event whose `data` is its JSON (with an `id` line when
 * given one); the clean end an `end` event (so that an `EventSource` can close instead of
 * reconnecting), an error an `error` event whose data is the problem document as JSON; a
 * heartbeat a comment line.
 */
export function sseWriter<T extends Type>(codec: Codec, type: T, opts: Opts | undefined): SequenceWriter<T> {
  return {
    mediaType: SSE,
    item(value: InferInput<T>, id?: string): Uint8Array {
      const text = itemText(codec, type, value, opts);
      if (text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1) throw unframable(`its ${codec.name} text holds a line break`);
      if (isBlank(text)) throw unframable(`its ${codec.name} text is blank`);
      if (id === undefined) return utf8Frame(`data: ${text}\n\n`);
      if (/[\r\n\0]/.test(id)) throw unframable('its SSE id holds a line break or NUL');
      return utf8Frame(`id: ${id}\ndata: ${text}\n\n`);
    },
    end: () => utf8.encode('event: end\ndata:\n\n'),
    error: (problem: ProblemDocument) => utf8.encode(`event: error\ndata: ${problemText(codec, problem)}\n\n`),
    heartbeat: () => utf8.encode(':\n'),
  };
}

/**
 * Reads Server-Sent Events as the HTML standard's parser does (lines ending in CR, LF or CRLF, a
 * leading BOM, `data` lines joined by line feeds, `event`, `id`, comments, other fields ignored,
 * an event without data not dispatched), for the events {@link sseWriter} writes: `message`
 * events are items, `end` the clean end, `error` the error; other event types are ignored.
 */
export function sseReader<T extends Type>(
  codec: Codec, type: T, opts: Opts | undefined, maxItemBytes: number, endAtEof: boolean,
): SequenceReader<Infer<T>> {
  const text = new TextDecoder();
  const tail = new Tail();
  let searched = 0;
  /** The last line ended with a CR at the end of a chunk: a LF starting the next one belongs to it. */
  let skipLf = false;
  let bomChecked = false;
  let done = false;
  let ended = false;
  let items = 0;
  let data = '';
  let dataBytes = 0;
  let event = '';
  let id: string | undefined;

  const dispatch = (): StreamEvent<Infer<T>> | undefined => {
    const kind = event === '' ? 'message' : event;
    const eventId = id;
    const payload = data.slice(0, -1);
    const hadData = data !== '';
    data = '';
    dataBytes = 0;
    event = '';
    id = undefined;
    if (!hadData) return undefined;
    try {
      switch (kind) {
        case 'message': {
          const value = codec.decode(type, payload, opts);
          items++;
          return eventId === undefined ? { kind: 'item', value } : { kind: 'item', value, id: eventId };
        }
        case 'end':
          done = true;
          return { kind: 'end' };
        case 'error':
          done = true;
          return { kind: 'error', problem: problemFromValue(codec.decode(t.unknown(), payload, opts)) };
        default:
          return undefined;
      }
    } catch (e) {
      throw atItem(e, items);
    }
  };

  const field = (line: string): void => {
    if (line.charCodeAt(0) === 0x3a) return; // a comment
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (name) {
      case 'data':
        dataBytes += value.length + 1;
        if (dataBytes > maxItemBytes + 1) throw itemTooLarge(items, maxItemBytes);
        data += value + '\n';
        return;
      case 'event':
        event = value;
        return;
      case 'id':
        if (!value.includes('\0')) id = value;
        return;
      default:
        return; // `retry` and unknown fields
    }
  };

  const atEof = (): StreamEvent<Infer<T>> | undefined => {
    if (done) return undefined;
    // An event not finished by a blank line is discarded, as the standard says: a cut.
    if (!endAtEof || data !== '' || event !== '') throw cutError(items, data !== '');
    done = true;
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
        if (start === end) return ended ? atEof() : undefined;
        if (skipLf) {
          skipLf = false;
          if (bytes[start] === LF) {
            tail.start++;
            continue;
          }
        }
        if (done) throw afterEnd();
        if (!bomChecked) {
          if (end - start < 3 && bytes[start] === 0xef && !ended) {
            tail.keep();
            return undefined;
          }
          bomChecked = true;
          if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) tail.start += 3;
          continue;
        }
        let i = start + searched;
        while (i < end && bytes[i] !== LF && bytes[i] !== CR) i++;
        if (i === end) {
          if (end - start > maxItemBytes + FIELD_BYTES) throw itemTooLarge(items, maxItemBytes);
          // An unfinished line at the end of the input: its event never completes.
          if (ended) throw cutError(items, true);
          searched = end - start;
          tail.keep();
          return undefined;
        }
        if (i - start > maxItemBytes + FIELD_BYTES) throw itemTooLarge(items, maxItemBytes);
        let next = i + 1;
        if (bytes[i] === CR) {
          if (next === end) skipLf = true;
          else if (bytes[next] === LF) next++;
        }
        tail.start = next;
        searched = 0;
        if (i === start) {
          const dispatched = dispatch();
          if (dispatched !== undefined) return dispatched;
        } else {
          field(text.decode(bytes.subarray(start, i)));
        }
      }
    },
    finish(): void {
      ended = true;
    },
  };
}
