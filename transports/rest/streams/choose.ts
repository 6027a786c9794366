import type { Codec } from '../../../core/codec.ts';
import { acceptance, parseAccept } from '../media-type.ts';
import type { Choice } from '../negotiate.ts';
import { sequenceCodec } from './framing.ts';
import { SSE } from './sse.ts';

/**
 * The framing of a stream answer, from `Accept` with q-values: each codec's sequence type
 * (`application/jsonl`, `application/cbor-seq`, ...) and Server-Sent Events (JSON items). Highest
 * q wins, then the most specific range; among equals (`*\/*`, no `Accept`) the request's codec's
 * sequence type, else JSON Lines, then the codecs' order, SSE last: an `EventSource` names it.
 * `undefined` when nothing is acceptable (a 406).
 */
export function chooseStreamType(codecs: readonly Codec[], accept: string | null, requestCodec: Codec | undefined): Choice | undefined {
  const candidates: { choice: Choice; rank: number }[] = [];
  const lines = sequenceCodec(SSE, codecs);
  codecs.forEach((codec, index) => {
    const contentType = codec.sequenceType;
    if (contentType === undefined) return;
    candidates.push({ choice: { codec, contentType }, rank: codec === requestCodec ? -2 : codec === lines ? -1 : index });
  });
  if (lines !== undefined) candidates.push({ choice: { codec: lines, contentType: SSE }, rank: codecs.length });
  if (accept === null || accept.trim() === '') return candidates.sort((a, b) => a.rank - b.rank)[0]?.choice;
  const ranges = parseAccept(accept);
  let best: { choice: Choice; q: number; specificity: number; rank: number } | undefined;
  for (const { choice, rank } of candidates) {
    const { q, specificity } = acceptance(ranges, choice.contentType);
    if (q <= 0) continue;
    if (best === undefined || q > best.q || (q === best.q && (specificity > best.specificity || (specificity === best.specificity && rank < best.rank)))) {
      best = { choice, q, specificity, rank };
    }
  }
  return best?.choice;
}

