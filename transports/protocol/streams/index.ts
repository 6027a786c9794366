// Streams' framing: the bytes of a sequence of items in each stream media type, written and read.
export { sequenceCodec, sequenceReader, sequenceWriter } from './framing.ts';
export { SSE } from './sse.ts';
export { DEFAULT_MAX_ITEM_BYTES } from './events.ts';
export type { SequenceReader, SequenceReaderOptions, StreamEvent } from './events.ts';
export type { SequenceWriter } from './writer.ts';
export { readEvents } from './read-events.ts';
