// What the stream specs share: the four stream media types with their codecs, an item descriptor,
// and helpers to write a whole stream and to read bytes through a reader in given chunks.
import fc from 'fast-check';
import { t, type Codec, type Infer, type Type } from '../../../../index.ts';
import { cbor } from '../../../../codecs/cbor/index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { msgpack } from '../../../../codecs/msgpack/index.ts';
import { problem, type ProblemDocument } from '../../../../transports/protocol/problem.ts';
import { concatBytes } from '../../../../transports/protocol/streams/bytes.ts';
import {
  sequenceReader,
  sequenceWriter,
  type SequenceReader,
  type SequenceReaderOptions,
  type StreamEvent,
} from '../../../../transports/protocol/streams/index.ts';

export const MEDIA: readonly { readonly mediaType: string; readonly codec: Codec }[] = [
  { mediaType: 'application/jsonl', codec: json },
  { mediaType: 'text/event-stream', codec: json },
  { mediaType: 'application/cbor-seq', codec: cbor },
  { mediaType: 'application/msgpack-seq', codec: msgpack },
];

export const Ticket = t.object({
  id: t.u32(),
  title: t.string({ minLength: 1 }),
  tags: t.array(t.string()),
  done: t.bool(),
});
export type Ticket = Infer<typeof Ticket>;

/** Tickets as reading gives them back (plain JSON values, so that foreign decoders agree). */
export const arbTicket: fc.Arbitrary<Ticket> = fc.record({
  id: fc.nat({ max: 0xffffffff }),
  title: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }),
  tags: fc.array(fc.string({ maxLength: 6, unit: 'grapheme' }), { maxLength: 3 }),
  done: fc.boolean(),
});

export const ticket = (i: number): Ticket => ({
  id: i,
  title: `ticket ${i}: ünïcödé ✓`,
  tags: i % 2 === 0 ? ['a', 'b\nc'] : [],
  done: i % 3 === 0,
});

export const failure: ProblemDocument = { ...problem(503, 'the feed went away'), requestId: 'r-1', retryIn: 5 };

/** `parts` one after another, as the framing joins them. */
export { concatBytes as concat } from '../../../../transports/protocol/streams/bytes.ts';

/** A whole stream of `items`, ended cleanly or by `error`. */
export function stream(mediaType: string, codec: Codec, items: readonly Ticket[], error?: ProblemDocument): Uint8Array {
  const writer = sequenceWriter(mediaType, codec, Ticket);
  const parts = items.map((item, i) =>
    writer.item(item, mediaType === 'text/event-stream' && i % 2 === 0 ? `id-${i}` : undefined),
  );
  // Heartbeats between items, where the media type has them.
  const heartbeat = writer.heartbeat();
  if (heartbeat !== undefined) parts.splice(Math.min(1, parts.length), 0, heartbeat);
  parts.push(error === undefined ? writer.end() : writer.error(error));
  return concatBytes(parts);
}

/** `bytes` cut at `cuts` (offsets, in any order; duplicates give empty chunks). */
export function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [0, ...cuts.map((c) => Math.min(c, bytes.length)).sort((a, b) => a - b), bytes.length];
  return at.slice(1).map((end, i) => bytes.slice(at[i], end));
}

/** Every event of `chunks` through a new reader, `finish` included; throws what the reader throws. */
export function readAll(
  mediaType: string,
  codec: Codec,
  chunks: readonly Uint8Array[],
  options?: SequenceReaderOptions,
  type: Type = Ticket,
): StreamEvent<Ticket>[] {
  const reader = sequenceReader(mediaType, codec, type, options) as SequenceReader<Ticket>;
  const events: StreamEvent<Ticket>[] = [];
  for (const chunk of chunks) {
    reader.push(chunk);
    for (let e = reader.next(); e !== undefined; e = reader.next()) events.push(e);
  }
  reader.finish();
  for (let e = reader.next(); e !== undefined; e = reader.next()) events.push(e);
  return events;
}

/** The events `items` and an end (or `error`) read as. */
export function expected(mediaType: string, items: readonly Ticket[], error?: ProblemDocument): StreamEvent<Ticket>[] {
  const events: StreamEvent<Ticket>[] = items.map((value, i) =>
    mediaType === 'text/event-stream' && i % 2 === 0 ? { kind: 'item', value, id: `id-${i}` } : { kind: 'item', value },
  );
  events.push(error === undefined ? { kind: 'end' } : { kind: 'error', problem: error });
  return events;
}
