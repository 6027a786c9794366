// Provisional readers, replaced by transports/rest/streams/ once it lands.
import type { Codec } from '../../../core/codec.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { ReadError } from '../../../core/errors/read-error.ts';

/** What a stream answer holds, in order. */
export type SequenceEvent =
  | { readonly kind: 'item'; readonly value: unknown }
  | { readonly kind: 'end' }
  | { readonly kind: 'error'; readonly problem: Record<string, unknown> };

/** Reads a stream answer as its bytes arrive. */
export interface SequenceReader {
  push(chunk: Uint8Array): SequenceEvent[];
  /** At the end of the bytes: a `ReadError` when the stream was cut before its end. */
  finish(): SequenceEvent[];
}

export function sequenceReader(contentType: string, codec: Codec, item: Type, opts: Opts): SequenceReader {
  if (!contentType.startsWith('application/jsonl')) throw new TypeError(`lacquer/client: ${contentType} is not read yet`);
  const decoder = new TextDecoder();
  let tail = '';
  let index = 0;
  let ended = false;
  let closed = false;
  return {
    push(chunk) {
      tail += decoder.decode(chunk, { stream: true });
      const out: SequenceEvent[] = [];
      for (let nl = tail.indexOf('\n'); nl !== -1 && !closed; nl = tail.indexOf('\n')) {
        const line = tail.slice(0, nl);
        tail = tail.slice(nl + 1);
        if (ended) {
          out.push({ kind: 'error', problem: JSON.parse(line) as Record<string, unknown> });
          closed = true;
        } else if (line === '') ended = true;
        else out.push({ kind: 'item', value: codec.decode(item, line, opts) });
        index++;
      }
      return out;
    },
    finish() {
      if (closed) return [];
      if (ended && tail === '') return [{ kind: 'end' }];
      throw new ReadError('syntax_error', '', `the stream was cut after ${index} items, before its end`);
    },
  };
}
