import type { Codec } from '../../../core/codec.ts';
import type { Infer, Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { mediaTypeEssence } from '../media-type.ts';
import { DEFAULT_MAX_ITEM_BYTES, type SequenceReader, type SequenceReaderOptions } from './events.ts';
import { LinesReader, linesWriter } from './lines.ts';
import { ValuesReader, valuesWriter } from './values.ts';
import type { SequenceWriter } from './writer.ts';

// A codec's own sequence (`application/jsonl`, `application/cbor-seq`, `application/msgpack-seq`),
// without Server-Sent Events: what the client reads and writes, and what `framing.ts` adds SSE to
// for the server. Apart, so that the client's bundle holds no SSE framing.

/** How a codec frames its sequence: as lines of text, or as its self-delimiting values. */
export function framingOf(codec: Codec): 'lines' | 'values' {
  return codec.itemScanner === undefined && codec.sequenceEnd === undefined ? 'lines' : 'values';
}

/** The codec whose `sequenceType` `mediaType` (parameters allowed) is, among `codecs`; `undefined` when none. */
export function ownSequenceCodec(mediaType: string, codecs: readonly Codec[]): Codec | undefined {
  const essence = mediaTypeEssence(mediaType);
  return essence === undefined
    ? undefined
    : codecs.find((c) => c.sequenceType !== undefined && c.sequenceType.toLowerCase() === essence);
}

/** The essence of `mediaType`, when it is `codec`'s own sequence type; else a `TypeError`. */
export function ownSequenceType(mediaType: string, codec: Codec): string {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined || codec.sequenceType?.toLowerCase() !== essence) {
    throw new TypeError(
      `lacquer: the ${codec.name} codec does not frame ${essence ?? 'that media type'} (its sequenceType: ${codec.sequenceType ?? 'none'})`,
    );
  }
  return essence;
}

/** The writer of `codec`'s own sequence of `type` items: lines of a text codec, or a binary codec's values. */
export function ownSequenceWriter<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  opts?: Opts,
): SequenceWriter<T> {
  const essence = ownSequenceType(mediaType, codec);
  return framingOf(codec) === 'lines'
    ? linesWriter(essence, codec, type, opts)
    : valuesWriter(essence, codec, type, opts);
}

/** A new reader of `codec`'s own sequence of `type` items (see {@link SequenceReader}). */
export function ownSequenceReader<T extends Type>(
  mediaType: string,
  codec: Codec,
  type: T,
  options: SequenceReaderOptions = {},
): SequenceReader<Infer<T>> {
  ownSequenceType(mediaType, codec);
  const { opts, maxItemBytes, endAtEof } = readerOptions(options);
  return framingOf(codec) === 'lines'
    ? new LinesReader(codec, type, opts, maxItemBytes, endAtEof)
    : new ValuesReader(codec, type, opts, maxItemBytes, endAtEof);
}

/** A reader's options with their defaults, checked. */
export function readerOptions(options: SequenceReaderOptions): {
  opts: Opts | undefined;
  maxItemBytes: number;
  endAtEof: boolean;
} {
  const { opts, maxItemBytes = DEFAULT_MAX_ITEM_BYTES, endAtEof = false } = options;
  if (!(maxItemBytes > 0)) throw new RangeError(`lacquer: maxItemBytes must be positive, got ${maxItemBytes}`);
  return { opts, maxItemBytes, endAtEof };
}
