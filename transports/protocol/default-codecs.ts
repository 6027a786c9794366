import { cbor } from '../../codecs/cbor/index.ts';
import type { Codec } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

/** The registry's codecs unless `codecs` is given: JSON first (the fallback), MessagePack, CBOR. */
export const DEFAULT_CODECS: readonly Codec[] = Object.freeze([json, msgpack, cbor]);
