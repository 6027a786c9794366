import type { Codec } from '../../../core/codec.ts';
import { problemMediaType } from '../negotiate.ts';
import type { SchemaForm } from './types.ts';

/** How one codec appears in the document. */
export interface MediaForm {
  /** What the codec labels its answers with, and reads: its first media type. */
  readonly mediaType: string;
  /** The media type of problem documents it writes: `application/problem+cbor`. */
  readonly problemType: string;
  readonly form: SchemaForm;
}

const DEFAULT_FORMS: Readonly<Record<string, SchemaForm>> = { json: 'json', msgpack: 'binary', cbor: 'binary' };
const FORMS: readonly SchemaForm[] = ['json', 'binary', 'none'];

/** Each codec's media types and schema form, in the registry's order (JSON first by default). */
export function mediaForms(codecs: readonly Codec[], forms: Readonly<Record<string, SchemaForm>> = {}): MediaForm[] {
  for (const [name, form] of Object.entries(forms)) {
    if (!FORMS.includes(form)) throw new TypeError(`openApi(): schemaForms.${name} must be 'json', 'binary' or 'none', got ${String(form)}`);
  }
  const out: MediaForm[] = [];
  for (const codec of codecs) {
    const mediaType = codec.contentTypes[0];
    if (mediaType === undefined || out.some((m) => m.mediaType === mediaType)) continue;
    const form = Object.hasOwn(forms, codec.name) ? forms[codec.name]! : Object.hasOwn(DEFAULT_FORMS, codec.name) ? DEFAULT_FORMS[codec.name]! : 'none';
    out.push({ mediaType, problemType: problemMediaType(codec), form });
  }
  return out;
}
