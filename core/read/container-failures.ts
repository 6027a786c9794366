import { Failure } from '../errors/failure.ts';
import { loneSurrogate } from '../kinds/string.ts';

// The failures of containers when reading, stated once for the closure readers, the collecting
// pass and the parsers (generated readers bail instead, and the closures give these).

/** A required key is absent (an object's member, or a variant's discriminant), at the key. */
export function missingKey(key: string): Failure {
  return new Failure('missing_key', 'missing required key', key);
}

/** A key the object does not declare, with `errorOnUnknownKeys`. */
export function unknownKey(key: string): Failure {
  return new Failure('unknown_key', 'unknown key', key);
}

/** A map (or `t.unknown()` object) key that is not Unicode text: said once, at the map. */
export function notTextKey(key: string): Failure {
  return new Failure('type_mismatch', `expected Unicode text as a key, got ${loneSurrogate(key)}`);
}

/** A container nested deeper than `maxDepth` (the `maxDepth` read option). */
export function nestingTooDeep(maxDepth: number): Failure {
  return new Failure('limit_exceeded', `nesting deeper than maxDepth (${maxDepth})`);
}
