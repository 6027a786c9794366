import { compiled } from '../../core/fast-path/compiled.ts';
import type { AnyType, Type } from '../../core/types/index.ts';

/**
 * What the read pass will do with each place of a tree, worked out from the descriptor before
 * parsing, so the MessagePack and CBOR parsers build only what can be read. A container or byte
 * string at a place whose descriptor refuses its kind whatever it holds (an array where `t.u64()`
 * is expected) is still parsed in full, so every syntax error and limit is found where it was,
 * but nothing of it is kept: the parser returns a shared empty one of the same kind
 * ({@link PLACEHOLDER}), for which the read pass gives exactly the error it gives for the real one
 * ("expected an integer (u64), got an array"). Places the read pass never looks at (the value of
 * an undeclared key, tuple positions past its length) get {@link IGNORE}: parsed, never kept.
 *
 * Only arrays, maps and byte strings are guided: they are what a tree costs far beyond its size
 * on the wire. Scalars are always kept, so every error about a scalar is unchanged.
 */
export interface Guide {
  /** An array here can be read: not refused by kind. */
  readonly array: boolean;
  /** A map here can be read (as an object or a map). */
  readonly record: boolean;
  /** A byte string here can be read. */
  readonly bytes: boolean;
  /** The guide of every element, for `t.array`; `undefined` with `tuple`. */
  readonly element: Guide | undefined;
  /** One guide per position, for `t.tuple`: an array of another length is refused. */
  readonly tuple: readonly Guide[] | undefined;
  /** The guide of every value, for `t.map`, and of undeclared keys' values otherwise. */
  readonly values: Guide;
  /** The guides of declared keys' values, for `t.object`. */
  readonly fields: ReadonlyMap<string, Guide> | undefined;
  /**
   * The declared keys, and their guides, in declared order: writers write members in that order,
   * so the parser tries the next declared key (a string comparison) before the map lookup.
   */
  readonly keys: readonly string[];
  readonly keyGuides: readonly Guide[];
}

/** No descriptor: everything is read, as the parsers did before guides. */
export const ACCEPT_ALL: Guide = {
  array: true, record: true, bytes: true, element: undefined, tuple: undefined, values: undefined!, fields: undefined, keys: [], keyGuides: [],
};
(ACCEPT_ALL as { element: Guide }).element = ACCEPT_ALL;
(ACCEPT_ALL as { values: Guide }).values = ACCEPT_ALL;

/** A place the read pass never looks at, and everything inside a refused item. */
export const IGNORE: Guide = {
  array: false, record: false, bytes: false, element: undefined, tuple: undefined, values: undefined!, fields: undefined, keys: [], keyGuides: [],
};
(IGNORE as { element: Guide }).element = IGNORE;
(IGNORE as { values: Guide }).values = IGNORE;

/** A scalar place: any container or byte string is refused (map keys, `t.u64()`, `t.string()`…). */
export const SCALAR: Guide = {
  array: false, record: false, bytes: false, element: IGNORE, tuple: undefined, values: IGNORE, fields: undefined, keys: [], keyGuides: [],
};

/** The item of a bignum tag (CBOR tags 2 and 3): a byte string, whatever the place expects. */
export const BIGNUM: Guide = { ...SCALAR, bytes: true };

/**
 * What stands for a refused or ignored item: one shared, empty, frozen item per kind. The read
 * pass only ever looks at its kind (`describeValue` gives "an array", "an object", "bytes").
 */
export const PLACEHOLDER = {
  array: Object.freeze([]) as unknown as unknown[],
  record: Object.freeze({}) as Record<string, unknown>,
  bytes: new Uint8Array(0),
};

/** The guide of a descriptor, worked out once and kept with it (in its compiled artefacts). */
export function guideOf(type: Type | undefined): Guide {
  return type === undefined ? ACCEPT_ALL : compiled(type, 'guide', () => build(type));
}

function build(type: Type): Guide {
  const d = type as AnyType;
  switch (d.kind) {
    // The wrappers accept null (and undefined) besides what their inner descriptor accepts.
    case 'optional': case 'nullable': return guideOf(d.inner);
    case 'array': return { ...SCALAR, array: true, element: guideOf(d.element) };
    case 'tuple': return { ...SCALAR, array: true, tuple: d.elements.map(guideOf) };
    case 'map': return { ...SCALAR, record: true, values: guideOf(d.values) };
    case 'object': {
      const fields = new Map<string, Guide>();
      for (const [key, field] of Object.entries(d.fields)) fields.set(key, guideOf(field));
      return { ...SCALAR, record: true, fields, keys: [...fields.keys()], keyGuides: [...fields.values()] };
    }
    case 'bytes': return { ...SCALAR, bytes: true };
    // Strings, numbers, booleans, literals, enums, void: no container and no byte string is read.
    default: return SCALAR;
  }
}
