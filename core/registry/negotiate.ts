import type { Codec } from '../../codecs/codec.ts';
import { acceptance, mediaTypeEssence, parseAccept } from './media-type.ts';

/** A codec chosen for an answer, and the media type it is labelled with. */
export interface Choice {
  readonly codec: Codec;
  readonly contentType: string;
}

/** The codec reading a `Content-Type` (parameters such as `charset` ignored), if any. */
export function codecForContentType(codecs: readonly Codec[], contentType: string): Codec | undefined {
  const essence = mediaTypeEssence(contentType);
  if (essence === undefined) return undefined;
  return codecs.find((c) => c.contentTypes.includes(essence));
}

/**
 * The codec of the answer, from `Accept` with q-values. Highest q wins, then the most specific
 * range, then the request's codec, then the order of `codecs`: so `*\/*` or no `Accept` gives the
 * request's codec, else the first codec (JSON by default). `undefined` when nothing is acceptable.
 * A codec is labelled with its first media type unless `Accept` names one of its aliases.
 */
export function chooseResponseCodec(codecs: readonly Codec[], accept: string | null, requestCodec: Codec | undefined): Choice | undefined {
  const first = requestCodec ?? codecs[0];
  if (accept === null || accept.trim() === '') return first && { codec: first, contentType: first.contentTypes[0]! };
  const ranges = parseAccept(accept);
  let best: { choice: Choice; q: number; specificity: number; rank: number } | undefined;
  codecs.forEach((codec, index) => {
    const rank = codec === requestCodec ? -1 : index;
    codec.contentTypes.forEach((contentType) => {
      const { q, specificity } = acceptance(ranges, contentType);
      if (q <= 0) return;
      const better = best === undefined || q > best.q || (q === best.q && (specificity > best.specificity
        || (specificity === best.specificity && rank < best.rank)));
      if (better) best = { choice: { codec, contentType }, q, specificity, rank };
    });
  });
  if (best === undefined) return undefined;
  // Only an alias the client named explicitly replaces the codec's first media type.
  const { codec, contentType } = best.choice;
  return best.specificity === 2 ? best.choice : { codec, contentType: codec.contentTypes[0] ?? contentType };
}

/** The media type of problem documents written by `codec`: `application/problem+cbor`. */
export function problemMediaType(codec: Codec): string {
  return `application/problem+${codec.name}`;
}

/**
 * The codec of a problem document: JSON (`application/problem+json`) unless `Accept` names
 * `application/problem+<codec>` explicitly with a higher q-value (RFC 9457 §3: JSON is the default).
 */
export function chooseProblemCodec(codecs: readonly Codec[], accept: string | null, fallback: Codec): Codec {
  if (accept === null) return fallback;
  const ranges = parseAccept(accept).filter((r) => r.specificity === 2);
  let best = fallback;
  let bestQ = acceptance(ranges, problemMediaType(fallback)).q;
  for (const codec of codecs) {
    const { q } = acceptance(ranges, problemMediaType(codec));
    if (q > bestQ) {
      best = codec;
      bestQ = q;
    }
  }
  return best;
}
