import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { mediaTypeEssence } from '../media-type.ts';
import { DEFAULT_MAX_ITEM_BYTES, type SequenceReader, type SequenceReaderOptions } from './events.ts';
import { LinesReader, linesWriter } from './lines.ts';
import { SSE, SseReader, sseWriter } from './sse.ts';
import { ValuesReader, valuesWriter } from './values.ts';
import type { SequenceWriter } from './writer.ts';

/** How a codec frames its sequence: as lines of text, or as its self-delimiting values. */
function framingOf(codec: Codec): 'lines' | 'values' {
  return codec.itemScanner === undefined && codec.sequenceEnd === undefined ? 'lines' : 'values';
}

/**
 * The codec that writes and reads `mediaType` (a stream's media type, parameters allowed): the
 * one whose `sequenceType` it is, or for `text/event-stream` the first text codec (JSON Lines')
 * among `codecs`; `undefined` when none does (406, or 415 for a request stream's body).
 */
export function sequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined) return undefined;
  if (essence === SSE) return codecs.find((c) => c.sequenceType !== undefined && framingOf(c) === 'lines');
  return codecs.find((c) => c.sequenceType !== undefined && c.sequenceType.toLowerCase() === essence);
}

/** The codec reading a request stream's body of `mediaType`: as {@link sequenceCodec}, but never SSE, which only answers. */
export function requestSequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  return mediaTypeEssence(mediaType) === SSE ? undefined : sequenceCodec(mediaType, codecs);
}

/** Refuses a codec that cannot frame `essence`. */
function check(essence: string | undefined, codec: Codec): asserts essence is string {
  if (essence === SSE) {
    if (codec.sequenceType !== undefined && framingOf(codec) === 'lines') return;
    throw new TypeError(`lacquer: text/event-stream carries JSON; the ${codec.name} codec is no text codec with a sequenceType`);
  }
  if (essence === undefined || codec.sequenceType?.toLowerCase() !== essence) {
    throw new TypeError(`lacquer: the ${codec.name} codec does not frame ${essence ?? 'that media type'} (its sequenceType: ${codec.sequenceType ?? 'none'})`);
  }
}

/**
 * The writer of a stream of `type` items in `mediaType` (`application/jsonl`, `text/event-stream`,
 * or the `sequenceType` of a binary codec: `application/cbor-seq`, `application/msgpack-seq`),
 * encoding each item with `codec` and `opts`. Throws `TypeError` when `codec` does not frame that
 * media type (see {@link sequenceCodec}).
 */
export function sequenceWriter<T extends Type>(mediaType: string, codec: Codec, type: T, opts?: Opts): SequenceWriter<T> {
  const essence = mediaTypeEssence(mediaType);
  check(essence, codec);
  if (essence === SSE) return sseWriter(codec, type, opts);
  return framingOf(codec) === 'lines' ? linesWriter(essence, codec, type, opts) : valuesWriter(essence, codec, type, opts);
}

/**
 * A new reader of one stream of `type` items in `mediaType`, decoding each item with `codec` and
 * `options.opts` (see {@link SequenceReader}). Throws `TypeError` when `codec` does not frame that
 * media type.
 */
export function sequenceReader<T extends Type>(
  mediaType: string, codec: Codec, type: T, options: SequenceReaderOptions = {},
): SequenceReader<Infer<T>> {
  const essence = mediaTypeEssence(mediaType);
  check(essence, codec);
  const { opts, maxItemBytes = DEFAULT_MAX_ITEM_BYTES, endAtEof = false } = options;
  if (!(maxItemBytes > 0)) throw new RangeError(`lacquer: maxItemBytes must be positive, got ${maxItemBytes}`);
  if (essence === SSE) return new SseReader(codec, type, opts, maxItemBytes, endAtEof);
  return framingOf(codec) === 'lines'
    ? new LinesReader(codec, type, opts, maxItemBytes, endAtEof)
    : new ValuesReader(codec, type, opts, maxItemBytes, endAtEof);
}
