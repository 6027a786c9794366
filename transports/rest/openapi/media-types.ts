import type { Codec } from '../../../core/codec.ts';
import { problemMediaType } from '../../protocol/negotiate.ts';
import { sequenceCodec } from '../../protocol/streams/framing.ts';
import { SSE } from '../../protocol/streams/sse.ts';
import type { SchemaForm } from './types.ts';

/** How one codec appears in the document. */
export interface MediaForm {
  /** What the codec labels its answers with, and reads: its first media type. */
  readonly mediaType: string;
  /** The media type of problem documents it writes: `application/problem+cbor`. */
  readonly problemType: string;
  readonly form: SchemaForm;
}

/** How one media type of streams appears in the document. */
export interface StreamForm {
  /** The codec's `sequenceType` (`application/jsonl`), or `text/event-stream`. */
  readonly mediaType: string;
  /** The codec that writes the items (for Server-Sent Events, the text codec whose text is each event's data). */
  readonly codec: Codec;
  readonly form: SchemaForm;
}

const DEFAULT_FORMS: Readonly<Record<string, SchemaForm>> = { json: 'json', msgpack: 'binary', cbor: 'binary' };
const FORMS: readonly SchemaForm[] = ['json', 'binary', 'none'];

/** Each codec's media types and schema form, in the registry's order (JSON first by default). */
export function mediaForms(codecs: readonly Codec[], forms: Readonly<Record<string, SchemaForm>> = {}): MediaForm[] {
  for (const [name, form] of Object.entries(forms)) {
    if (!FORMS.includes(form))
      throw new TypeError(`openApi(): schemaForms.${name} must be 'json', 'binary' or 'none', got ${String(form)}`);
  }
  const out: MediaForm[] = [];
  for (const codec of codecs) {
    const mediaType = codec.contentTypes[0];
    if (mediaType === undefined || out.some((m) => m.mediaType === mediaType)) continue;
    out.push({ mediaType, problemType: problemMediaType(codec), form: formOf(codec, forms) });
  }
  return out;
}

/**
 * The media types a stream answer can have, as the server chooses among them
 * (`transports/protocol/streams/choose.ts`): each codec's `sequenceType` in the registry's order, then
 * Server-Sent Events when a text codec frames lines. Call after {@link mediaForms}, which checks `forms`.
 */
export function streamForms(codecs: readonly Codec[], forms: Readonly<Record<string, SchemaForm>> = {}): StreamForm[] {
  const out: StreamForm[] = [];
  for (const codec of codecs) {
    const mediaType = codec.sequenceType;
    if (mediaType === undefined || out.some((m) => m.mediaType === mediaType)) continue;
    out.push({ mediaType, codec, form: formOf(codec, forms) });
  }
  const lines = sequenceCodec(SSE, codecs);
  if (lines !== undefined) out.push({ mediaType: SSE, codec: lines, form: formOf(lines, forms) });
  return out;
}

/** The schema form of a codec's media types: as `forms` names it, else its default. */
function formOf(codec: Codec, forms: Readonly<Record<string, SchemaForm>>): SchemaForm {
  return Object.hasOwn(forms, codec.name)
    ? forms[codec.name]!
    : Object.hasOwn(DEFAULT_FORMS, codec.name)
      ? DEFAULT_FORMS[codec.name]!
      : 'none';
}
