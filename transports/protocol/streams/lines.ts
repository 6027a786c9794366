import type { Codec } from '../../../core/codec.ts';
import type { Infer, InferInput, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import type { ProblemDocument } from '../problem.ts';
import { afterEnd, cutError, itemTooLarge, type StreamEvent } from './events.ts';
import { DONE, ITEMS, MarkedReader } from './reader-base.ts';
import { isBlank, oneLine, itemText, problemText, unframable, utf8, utf8Frame } from './text.ts';
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
export function linesWriter<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  opts: Opts | undefined,
): SequenceWriter<T> {
  opts = oneLine(opts);
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

/** Reads JSON Lines as {@link linesWriter} writes them. A line's carriage return before its line feed is allowed. */
export class LinesReader<T extends Type> extends MarkedReader<T> {
  /** Bytes of the unfinished line known to hold no line feed. */
  private searched = 0;

  next(): StreamEvent<Infer<T>> | undefined {
    const tail = this.tail;
    for (;;) {
      const { bytes, start } = tail;
      const end = bytes.length;
      if (start === end) return this.ended ? this.atEof() : undefined;
      if (this.state === DONE) throw afterEnd(this.items);
      const lf = bytes.indexOf(LF, start + this.searched);
      if (lf === -1) {
        if (end - start > this.maxItemBytes) throw itemTooLarge(this.items, this.maxItemBytes);
        if (!this.ended) {
          this.searched = end - start;
          tail.keep();
          return undefined;
        }
        // The input ended inside a line: an item without its line feed only where `endAtEof` allows.
        if (!this.endAtEof || this.state !== ITEMS) throw cutError(this.items, true);
      }
      const stop = lf === -1 ? end : lf;
      tail.start = lf === -1 ? end : lf + 1;
      this.searched = 0;
      const event = this.line(bytes, start, stop);
      if (event !== undefined) return event;
    }
  }

  /** The event of the complete line `[start, stop)`, or `undefined` for the end marker. */
  private line(bytes: Uint8Array, start: number, stop: number): StreamEvent<Infer<T>> | undefined {
    if (stop - start > this.maxItemBytes) throw itemTooLarge(this.items, this.maxItemBytes);
    return blankBytes(bytes, start, stop) ? this.markerRead() : this.value(bytes.subarray(start, stop));
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
