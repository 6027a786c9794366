import type { Codec } from '../../../core/codec.ts';

/** Server-Sent Events: items as `message` events whose data is their JSON. */
export const SSE = 'text/event-stream';

const SEQUENCE_TYPES: Readonly<Record<string, string>> = { json: 'application/jsonl', cbor: 'application/cbor-seq', msgpack: 'application/msgpack-seq' };

/** The sequence media type of a codec (`application/jsonl` for JSON), if it has one. */
export function sequenceTypeOf(codec: Codec): string | undefined {
  return SEQUENCE_TYPES[codec.name];
}
