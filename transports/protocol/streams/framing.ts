import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { mediaTypeEssence } from '../media-type.ts';
import type { SequenceReader, SequenceReaderOptions } from './events.ts';
import { framingOf, ownSequenceCodec, ownSequenceReader, ownSequenceWriter, readerOptions } from './plain-framing.ts';
import { SSE, SseReader, sseWriter } from './sse.ts';
import type { SequenceWriter } from './writer.ts';

/**
 * Other names of a sequence type, read as it: `application/x-ndjson` (newline-delimited JSON, the
 * name many tools send) is JSON Lines. An answer is written under another name only when a request
 * names it (see `chooseStreamType`). The server's alone: the client asks for the types themselves.
 */
export const SEQUENCE_ALIASES: ReadonlyMap<string, string> = new Map([['application/x-ndjson', 'application/jsonl']]);

/** The sequence type `mediaType` names: the type it is another name of, else `mediaType` itself. */
function canonical(mediaType: string): string {
  const essence = mediaTypeEssence(mediaType);
  return (essence === undefined ? undefined : SEQUENCE_ALIASES.get(essence)) ?? mediaType;
}

/**
 * The codec that writes and reads `mediaType` (a stream's media type, parameters allowed): the
 * one whose `sequenceType` it is (or another name of), or for `text/event-stream` the first text codec (JSON Lines')
 * among `codecs`; `undefined` when none does (406, or 415 for a request stream's body).
 */
export function sequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  if (mediaTypeEssence(mediaType) === SSE)
    return codecs.find((c) => c.sequenceType !== undefined && framingOf(c) === 'lines');
  return ownSequenceCodec(canonical(mediaType), codecs);
}

/** The codec reading a request stream's body of `mediaType`: as {@link sequenceCodec}, but never SSE, which only answers. */
export function requestSequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  return ownSequenceCodec(canonical(mediaType), codecs);
}

/** Refuses a codec that cannot carry Server-Sent Events: one that is no text codec with a sequence. */
function checkSse(codec: Codec): void {
  if (codec.sequenceType !== undefined && framingOf(codec) === 'lines') return;
  throw new TypeError(
    `lacquer: text/event-stream carries JSON; the ${codec.name} codec is no text codec with a sequenceType`,
  );
}

/**
 * The writer of a stream of `type` items in `mediaType` (`application/jsonl`, `text/event-stream`,
 * or the `sequenceType` of a binary codec: `application/cbor-seq`, `application/msgpack-seq`),
 * encoding each item with `codec` and `opts`. Throws `TypeError` when `codec` does not frame that
 * media type (see {@link sequenceCodec}).
 */
export function sequenceWriter<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  opts?: Opts,
): SequenceWriter<T> {
  if (mediaTypeEssence(mediaType) !== SSE) {
    const own = canonical(mediaType);
    // Under another name, the same frames, labelled with the name asked for.
    return own === mediaType
      ? ownSequenceWriter(mediaType, codec, type, opts)
      : { ...ownSequenceWriter(own, codec, type, opts), mediaType: mediaTypeEssence(mediaType)! };
  }
  checkSse(codec);
  return sseWriter(codec, type, opts);
}

/**
 * A new reader of one stream of `type` items in `mediaType`, decoding each item with `codec` and
 * `options.opts` (see {@link SequenceReader}). Throws `TypeError` when `codec` does not frame that
 * media type.
 */
export function sequenceReader<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  options: SequenceReaderOptions = {},
): SequenceReader<Infer<T>> {
  if (mediaTypeEssence(mediaType) !== SSE) return ownSequenceReader(canonical(mediaType), codec, type, options);
  checkSse(codec);
  const { opts, maxItemBytes, endAtEof } = readerOptions(options);
  return new SseReader(codec, type, opts, maxItemBytes, endAtEof);
}
