import type { Codec } from '../../../core/codec.ts';
import { acceptance, parseAccept } from '../media-type.ts';
import type { Choice } from '../negotiate.ts';
import { SEQUENCE_ALIASES, sequenceCodec } from './framing.ts';
import { SSE } from './sse.ts';

/** The media types a stream answer can be written in, for a 406: each codec's sequence type, then SSE. */
export function streamTypes(codecs: readonly Codec[]): string {
  const types = codecs.flatMap((c) => (c.sequenceType === undefined ? [] : [c.sequenceType]));
  return (sequenceCodec(SSE, codecs) === undefined ? types : [...types, SSE]).join(', ');
}

/**
 * The framing of a stream answer, from `Accept` with q-values: each codec's sequence type
 * (`application/jsonl`, `application/cbor-seq`, ...) and Server-Sent Events (JSON items). Highest
 * q wins, then the most specific range; among equals (`*\/*`, no `Accept`) the request's codec's
 * sequence type, else JSON Lines, then the codecs' order, SSE last: an `EventSource` names it;
 * another name of a sequence type (`application/x-ndjson`) after all of them.
 * `undefined` when nothing is acceptable (a 406).
 */
export function chooseStreamType(
  codecs: readonly Codec[],
  accept: string | null,
  requestCodec: Codec | undefined,
): Choice | undefined {
  const candidates: { choice: Choice; rank: number }[] = [];
  const lines = sequenceCodec(SSE, codecs);
  codecs.forEach((codec, index) => {
    const contentType = codec.sequenceType;
    if (contentType === undefined) return;
    candidates.push({
      choice: { codec, contentType },
      rank: codec === requestCodec ? -2 : codec === lines ? -1 : index,
    });
  });
  if (lines !== undefined) candidates.push({ choice: { codec: lines, contentType: SSE }, rank: codecs.length });
  // Another name of a sequence type ranks after every type: written only when Accept prefers it.
  for (const [alias, type] of SEQUENCE_ALIASES) {
    const codec = codecs.find((c) => c.sequenceType?.toLowerCase() === type);
    if (codec !== undefined) candidates.push({ choice: { codec, contentType: alias }, rank: codecs.length + 1 });
  }
  if (accept === null || accept.trim() === '') return candidates.sort((a, b) => a.rank - b.rank)[0]?.choice;
  const ranges = parseAccept(accept);
  let best: { choice: Choice; q: number; specificity: number; rank: number } | undefined;
  for (const { choice, rank } of candidates) {
    const { q, specificity } = acceptance(ranges, choice.contentType);
    if (q <= 0) continue;
    if (
      best === undefined ||
      q > best.q ||
      (q === best.q && (specificity > best.specificity || (specificity === best.specificity && rank < best.rank)))
    ) {
      best = { choice, q, specificity, rank };
    }
  }
  return best?.choice;
}
