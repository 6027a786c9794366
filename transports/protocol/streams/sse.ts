import type { Codec } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import type { ProblemDocument } from '../problem.ts';
import { afterEnd, cutError, itemTooLarge, type StreamEvent } from './events.ts';
import { ReaderBase } from './reader-base.ts';
import { isBlank, oneLine, itemText, problemText, unframable, utf8, utf8Frame } from './text.ts';
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
  opts = oneLine(opts);
  return {
    mediaType: SSE,
    item(value: InferInput<T>, id?: string): Uint8Array {
      const text = itemText(codec, type, value, opts);
      if (text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1)
        throw unframable(`its ${codec.name} text holds a line break`);
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
export class SseReader<T extends Type> extends ReaderBase<T> {
  private readonly text = new TextDecoder();
  private searched = 0;
  /** The last line ended with a CR at the end of the bytes: a LF coming next belongs to it. */
  private skipLf = false;
  private bomChecked = false;
  private done = false;
  /** The event being read: its data lines (each followed by a LF), their size, its type and id. */
  private data = '';
  private dataBytes = 0;
  private event = '';
  private id: string | undefined = undefined;

  next(): StreamEvent<Infer<T>> | undefined {
    const tail = this.tail;
    for (;;) {
      const { bytes, start } = tail;
      const end = bytes.length;
      if (start === end) return this.ended ? this.atEof() : undefined;
      if (this.skipLf) {
        this.skipLf = false;
        if (bytes[start] === LF) {
          tail.start++;
          continue;
        }
      }
      if (this.done) throw afterEnd(this.items);
      if (!this.bomChecked) {
        if (end - start < 3 && bytes[start] === 0xef && !this.ended) {
          tail.keep();
          return undefined;
        }
        this.bomChecked = true;
        if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) tail.start += 3;
        continue;
      }
      let i = start + this.searched;
      while (i < end && bytes[i] !== LF && bytes[i] !== CR) i++;
      if (i - start > this.maxItemBytes + FIELD_BYTES) throw itemTooLarge(this.items, this.maxItemBytes);
      if (i === end) {
        // An unfinished line at the end of the input: its event never completes.
        if (this.ended) throw cutError(this.items, true);
        this.searched = end - start;
        tail.keep();
        return undefined;
      }
      let next = i + 1;
      if (bytes[i] === CR) {
        if (next === end) this.skipLf = true;
        else if (bytes[next] === LF) next++;
      }
      tail.start = next;
      this.searched = 0;
      if (i > start) {
        this.field(this.text.decode(bytes.subarray(start, i)));
        continue;
      }
      const dispatched = this.dispatch();
      if (dispatched !== undefined) return dispatched;
    }
  }

  /** One field line (or a comment) of the event being read. */
  private field(line: string): void {
    if (line.charCodeAt(0) === 0x3a) return; // a comment
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (name) {
      case 'data':
        this.dataBytes += value.length + 1;
        if (this.dataBytes > this.maxItemBytes + 1) throw itemTooLarge(this.items, this.maxItemBytes);
        this.data += value + '\n';
        return;
      case 'event':
        this.event = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        return;
      default:
        return; // `retry` and unknown fields
    }
  }

  /** A blank line: the event read so far, if it has data and is of a type this reader knows. */
  private dispatch(): StreamEvent<Infer<T>> | undefined {
    const { data, id } = this;
    const kind = this.event === '' ? 'message' : this.event;
    this.data = '';
    this.dataBytes = 0;
    this.event = '';
    this.id = undefined;
    if (data === '') return undefined;
    const payload = data.slice(0, -1);
    switch (kind) {
      case 'message': {
        const item = this.item(payload);
        return id === undefined ? item : { ...item, id };
      }
      case 'end':
        this.done = true;
        return { kind: 'end' };
      case 'error':
        this.done = true;
        return this.problem(payload);
      default:
        return undefined;
    }
  }

  private atEof(): StreamEvent<Infer<T>> | undefined {
    if (this.done) return undefined;
    // An event not finished by a blank line is discarded, as the standard says: a cut.
    if (!this.endAtEof || this.data !== '' || this.event !== '') throw cutError(this.items, this.data !== '');
    this.done = true;
    return { kind: 'end' };
  }
}
