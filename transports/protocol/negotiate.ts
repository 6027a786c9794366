import type { Codec } from '../../core/codec.ts';
import { acceptance, mediaTypeEssence, parseAccept } from './media-type.ts';
import { remember } from '../../core/util/remember.ts';

/** A codec chosen for an answer, and the media type it is labelled with. */
export interface Choice {
  readonly codec: Codec;
  readonly contentType: string;
}

/**
 * Answers already worked out for one list of codecs: `Content-Type` and `Accept` values repeat from
 * request to request, and parsing them was a visible share of a small request's cost. Bounded in
 * entries and key length, and dropped when the list's members change.
 */
interface Memo {
  readonly snapshot: readonly Codec[];
  readonly readers: Map<string, Codec | null>;
  /** By the request codec's index + 1 (0: none), then by `Accept`. */
  readonly choices: Map<string, Choice | null>[];
}

/**
 * By the list of codecs, which registries and endpoints make (never a client): as many as there are
 * lists alive, each dropped with its list. The maps inside are keyed by headers, through `remember`.
 */
const memos = new WeakMap<readonly Codec[], Memo>();

function memoFor(codecs: readonly Codec[]): Memo {
  let memo = memos.get(codecs);
  let same = memo !== undefined && memo.snapshot.length === codecs.length;
  for (let i = 0; same && i < codecs.length; i++) same = memo!.snapshot[i] === codecs[i];
  if (!same)
    memos.set(
      codecs,
      (memo = { snapshot: [...codecs], readers: new Map(), choices: codecs.map(() => new Map()).concat(new Map()) }),
    );
  return memo!;
}

/** The codec reading a `Content-Type` (parameters such as `charset` ignored), if any. */
export function codecForContentType(codecs: readonly Codec[], contentType: string): Codec | undefined {
  const memo = memoFor(codecs);
  const known = memo.readers.get(contentType);
  if (known !== undefined) return known ?? undefined;
  const essence = mediaTypeEssence(contentType);
  const codec = essence === undefined ? undefined : codecs.find((c) => c.contentTypes.includes(essence));
  return remember(memo.readers, contentType, codec ?? null) ?? undefined;
}

/**
 * The codec of the answer, from `Accept` with q-values. Highest q wins, then the most specific
 * range, then the request's codec, then the order of `codecs`: so `*\/*` or no `Accept` gives the
 * request's codec, else the first codec (JSON by default). `undefined` when nothing is acceptable.
 * A codec is labelled with its first media type unless `Accept` names one of its aliases.
 */
export function chooseResponseCodec(
  codecs: readonly Codec[],
  accept: string | null,
  requestCodec: Codec | undefined,
): Choice | undefined {
  const index = requestCodec === undefined ? -1 : codecs.indexOf(requestCodec);
  if (requestCodec !== undefined && index === -1) return choose(codecs, accept, requestCodec);
  const choices = memoFor(codecs).choices[index + 1]!;
  const key = accept ?? '';
  const known = choices.get(key);
  if (known !== undefined) return known ?? undefined;
  const choice = choose(codecs, accept, requestCodec);
  return remember(choices, key, choice === undefined ? null : Object.freeze(choice)) ?? undefined;
}

function choose(codecs: readonly Codec[], accept: string | null, requestCodec: Codec | undefined): Choice | undefined {
  const first = requestCodec ?? codecs[0];
  if (accept === null || accept.trim() === '') return first && { codec: first, contentType: first.contentTypes[0]! };
  const ranges = parseAccept(accept);
  let best: { choice: Choice; q: number; specificity: number; rank: number } | undefined;
  codecs.forEach((codec, index) => {
    const rank = codec === requestCodec ? -1 : index;
    codec.contentTypes.forEach((contentType) => {
      const { q, specificity } = acceptance(ranges, contentType);
      if (q <= 0) return;
      const better =
        best === undefined ||
        q > best.q ||
        (q === best.q && (specificity > best.specificity || (specificity === best.specificity && rank < best.rank)));
      if (better) best = { choice: { codec, contentType }, q, specificity, rank };
    });
  });
  if (best === undefined) return undefined;
  // Only an alias the client named explicitly replaces the codec's first media type.
  const { codec, contentType } = best.choice;
  return best.specificity === 2 ? best.choice : { codec, contentType: codec.contentTypes[0] ?? contentType };
}

/**
 * One endpoint's negotiation, remembering its last request in front of the shared memo: clients
 * send the same `Content-Type` and `Accept` call after call, and comparing two short strings costs
 * less than a lookup by them. `codecs` must not change (a registry's are frozen).
 */
export class Negotiation {
  #contentType: string | undefined;
  #reader: Codec | undefined;
  /** `undefined` until a first choice; `null` is a request without `Accept`. */
  #accept: string | null | undefined;
  #requestCodec: Codec | undefined;
  #choice: Choice | undefined;

  constructor(readonly codecs: readonly Codec[]) {}

  /** {@link codecForContentType} of this endpoint's codecs. */
  reader(contentType: string): Codec | undefined {
    if (contentType !== this.#contentType) {
      this.#reader = codecForContentType(this.codecs, contentType);
      this.#contentType = contentType;
    }
    return this.#reader;
  }

  /** {@link chooseResponseCodec} of this endpoint's codecs. */
  answer(accept: string | null, requestCodec: Codec | undefined): Choice | undefined {
    if (accept !== this.#accept || requestCodec !== this.#requestCodec) {
      this.#choice = chooseResponseCodec(this.codecs, accept, requestCodec);
      this.#accept = accept;
      this.#requestCodec = requestCodec;
    }
    return this.#choice;
  }
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
