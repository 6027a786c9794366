import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { mediaTypeEssence } from '../media-type.ts';
import type { SequenceReader, SequenceReaderOptions } from './events.ts';
import { framingOf, ownSequenceCodec, ownSequenceReader, ownSequenceWriter, readerOptions } from './plain-framing.ts';
import { SSE, SseReader, sseWriter } from './sse.ts';
import type { SequenceWriter } from './writer.ts';

/**
 * The codec that writes and reads `mediaType` (a stream's media type, parameters allowed): the
 * one whose `sequenceType` it is, or for `text/event-stream` the first text codec (JSON Lines')
 * among `codecs`; `undefined` when none does (406, or 415 for a request stream's body).
 */
export function sequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  if (mediaTypeEssence(mediaType) === SSE) return codecs.find((c) => c.sequenceType !== undefined && framingOf(c) === 'lines');
  return ownSequenceCodec(mediaType, codecs);
}

/** The codec reading a request stream's body of `mediaType`: as {@link sequenceCodec}, but never SSE, which only answers. */
export function requestSequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  return ownSequenceCodec(mediaType, codecs);
}

/** Refuses a codec that cannot carry Server-Sent Events: one that is no text codec with a sequence. */
function checkSse(codec: Codec): void {
  if (codec.sequenceType !== undefined && framingOf(codec) === 'lines') return;
  throw new TypeError(`lacquer: text/event-stream carries JSON; the ${codec.name} codec is no text codec with a sequenceType`);
}

/**
 * The writer of a stream of `type` items in `mediaType` (`application/jsonl`, `text/event-stream`,
 * or the `sequenceType` of a binary codec: `application/cbor-seq`, `application/msgpack-seq`),
 * encoding each item with `codec` and `opts`. Throws `TypeError` when `codec` does not frame that
 * media type (see {@link sequenceCodec}).
 */
export function sequenceWriter<T extends Type>(mediaType: string, codec: Codec, type: T, opts?: Opts): SequenceWriter<T> {
  if (mediaTypeEssence(mediaType) !== SSE) return ownSequenceWriter(mediaType, codec, type, opts);
  checkSse(codec);
  return sseWriter(codec, type, opts);
}

/**
 * A new reader of one stream of `type` items in `mediaType`, decoding each item with `codec` and
 * `options.opts` (see {@link SequenceReader}). Throws `TypeError` when `codec` does not frame that
 * media type.
 */
export function sequenceReader<T extends Type>(
  mediaType: string, codec: Codec, type: T, options: SequenceReaderOptions = {},
): SequenceReader<Infer<T>> {
  if (mediaTypeEssence(mediaType) !== SSE) return ownSequenceReader(mediaType, codec, type, options);
  checkSse(codec);
  const { opts, maxItemBytes, endAtEof } = readerOptions(options);
  return new SseReader(codec, type, opts, maxItemBytes, endAtEof);
}
