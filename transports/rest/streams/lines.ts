import type { Codec } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { t } from '../../../core/descriptors/index.ts';
import type { ProblemDocument } from '../problem.ts';
import { atItem, afterEnd, cutError, itemTooLarge, type SequenceReader, type StreamEvent } from './events.ts';
import { problemFromValue } from './problem-value.ts';
import { Tail } from './tail.ts';
import { isBlank, itemText, problemText, unframable, utf8, utf8Frame } from './text.ts';
import type { SequenceWriter } from './writer.ts';

const LF = 0x0a;
/** The end marker, a blank line, twice: the clean end. */
const CLEAN_END = '\n\n';

/**
 * JSON Lines (`application/jsonl`): each item one line of compact JSON. The items end with a blank
 * line, followed by a second blank line for a clean end, or by one line holding the problem
 * document for an error. `jq` and JSON Lines readers that skip blank lines read the items (and the
 * problem document after them).
 */
export function linesWriter<T extends Type>(mediaType: string, codec: Codec, type: T, opts: Opts | undefined): SequenceWriter<T> {
  return {
    mediaType,
    item(value: InferInput<T>): Uint8Array {
      const text = itemText(codec, type, value, opts);
      if (text.indexOf('\n') !== -1) throw unframable(`its ${codec.name} text holds a line feed`);
      if (isBlank(text)) throw unframable(`its ${codec.name} text is blank`);
      return utf8Frame(text + '\n');
    },
    end: () => utf8.encode(CLEAN_END),
    error: (problem: ProblemDocument) => utf8.encode(`\n${problemText(codec, problem)}\n`),
    heartbeat: () => undefined,
  };
}

/** Where the reader is: among the items, after the end marker (the outcome comes next), or done. */
const ITEMS = 0;
const OUTCOME = 1;
const DONE = 2;

/** Reads JSON Lines as {@link linesWriter} writes them. A line's carriage return before its line feed is allowed. */
export function linesReader<T extends Type>(
  codec: Codec, type: T, opts: Opts | undefined, maxItemBytes: number, endAtEof: boolean,
): SequenceReader<Infer<T>> {
  const tail = new Tail();
  /** Bytes of the unfinished line known to hold no line feed. */
  let searched = 0;
  let state = ITEMS;
  let items = 0;
  let ended = false;

  /** The event of the complete line `[start, stop)`, or `undefined` for a marker line. */
  const line = (bytes: Uint8Array, start: number, stop: number): StreamEvent<Infer<T>> | undefined => {
    if (stop - start > maxItemBytes) throw itemTooLarge(items, maxItemBytes);
    const text = bytes.subarray(start, stop);
    if (blankBytes(bytes, start, stop)) {
      if (state === ITEMS) {
        state = OUTCOME;
        return undefined;
      }
      state = DONE;
      return { kind: 'end' };
    }
    if (state === OUTCOME) {
      state = DONE;
      try {
        return { kind: 'error', problem: problemFromValue(codec.decode(t.unknown(), text, opts)) };
      } catch (e) {
        throw atItem(e, items);
      }
    }
    let value: Infer<T>;
    try {
      value = codec.decode(type, text, opts);
    } catch (e) {
      throw atItem(e, items);
    }
    items++;
    return { kind: 'item', value };
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
        if (state === DONE) throw afterEnd();
        const lf = bytes.indexOf(LF, start + searched);
        if (lf === -1) {
          if (end - start > maxItemBytes) throw itemTooLarge(items, maxItemBytes);
          if (!ended) {
            searched = end - start;
            tail.keep();
            return undefined;
          }
          // The input ended inside a line: an item without its line feed only where `endAtEof` allows.
          if (!endAtEof || state !== ITEMS) throw cutError(items, true);
          tail.start = end;
          searched = 0;
          const event = line(bytes, start, end);
          if (event !== undefined) return event;
          continue;
        }
        tail.start = lf + 1;
        searched = 0;
        const event = line(bytes, start, lf);
        if (event !== undefined) return event;
      }
    },
    finish(): void {
      ended = true;
    },
  };

  function atEof(): StreamEvent<Infer<T>> | undefined {
    if (state === DONE) return undefined;
    if (!endAtEof) throw cutError(items, false);
    state = DONE;
    return { kind: 'end' };
  }
}

/** Whether `bytes[start, stop)` is a blank line: nothing, or spaces, tabs and carriage returns. */
function blankBytes(bytes: Uint8Array, start: number, stop: number): boolean {
  for (let i = start; i < stop; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}
