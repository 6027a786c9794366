import { compiled } from '../../core/compiled.ts';
import type { Type } from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';

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
  /**
   * The read pass checks the array's length before its elements (`t.array(T, { minItems,
   * maxItems })`): an array cut short after an element certain to fail keeps its length.
   */
  readonly counted: boolean;
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
  array: true,
  record: true,
  bytes: true,
  element: undefined,
  tuple: undefined,
  counted: false,
  values: undefined!,
  fields: undefined,
  keys: [],
  keyGuides: [],
};
(ACCEPT_ALL as { element: Guide }).element = ACCEPT_ALL;
(ACCEPT_ALL as { values: Guide }).values = ACCEPT_ALL;

/** A place the read pass never looks at, and everything inside a refused item. */
export const IGNORE: Guide = {
  array: false,
  record: false,
  bytes: false,
  element: undefined,
  tuple: undefined,
  counted: false,
  values: undefined!,
  fields: undefined,
  keys: [],
  keyGuides: [],
};
(IGNORE as { element: Guide }).element = IGNORE;
(IGNORE as { values: Guide }).values = IGNORE;

/** A scalar place: any container or byte string is refused (map keys, `t.u64()`, `t.string()`…). */
export const SCALAR: Guide = {
  array: false,
  record: false,
  bytes: false,
  element: IGNORE,
  tuple: undefined,
  counted: false,
  values: IGNORE,
  fields: undefined,
  keys: [],
  keyGuides: [],
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

/**
 * Container guides being built, by descriptor. A recursive descriptor (through `t.lazy`) meets
 * itself while its guide is built: it gets the guide under construction, filled in when that
 * finishes, so the guide of a recursive descriptor is a finite graph with a cycle.
 */
const pending = new Map<Type, Guide>();

/** The guide of a descriptor, worked out once and kept with it (in its compiled artefacts). */
export function guideOf(type: Type | undefined): Guide {
  if (type === undefined) return ACCEPT_ALL;
  return pending.get(type) ?? compiled(type, 'guide', () => build(type));
}

function build(type: Type): Guide {
  return visit(type, guideFor);
}

/**
 * A container's guide, `make` filled in place once built: a descriptor met again inside itself
 * gets this very object.
 */
function containerGuide(type: Type, make: () => Guide): Guide {
  const guide: Guide = { ...ACCEPT_ALL };
  pending.set(type, guide);
  try {
    Object.assign(guide, make());
  } finally {
    pending.delete(type);
  }
  return guide;
}

/** Strings, numbers, booleans, literals, enums, void, timestamps: no container and no byte string is read. */
const scalar = () => SCALAR;

const guideFor: Visitor<Guide> = {
  string: scalar,
  bool: scalar,
  int: scalar,
  bigint: scalar,
  float: scalar,
  timestamp: scalar,
  void: scalar,
  literal: scalar,
  enum: scalar,
  // The wrappers accept null (and undefined) besides what their inner descriptor accepts.
  optional: (d) => guideOf(d.inner),
  nullable: (d) => guideOf(d.inner),
  // `t.lazy` reads as its target does.
  lazy: (d) => guideOf(d.target),
  bytes: () => ({ ...SCALAR, bytes: true }),
  // Anything: every item is kept, as without a descriptor.
  unknown: () => ACCEPT_ALL,
  array: (d) =>
    containerGuide(d, () => ({
      ...SCALAR,
      array: true,
      element: guideOf(d.element),
      counted: d.constraints !== undefined,
    })),
  tuple: (d) => containerGuide(d, () => ({ ...SCALAR, array: true, tuple: d.elements.map(guideOf) })),
  map: (d) => containerGuide(d, () => ({ ...SCALAR, record: true, values: guideOf(d.values) })),
  object: (d) =>
    containerGuide(d, () => objectGuide(Object.entries(d.fields).map(([key, field]) => [key, guideOf(field)]))),
  variant: (d) =>
    containerGuide(d, () => {
      // Any member may read the record: a key declared by several is guided by what any of them takes.
      const byKey = new Map<string, Guide>();
      for (const member of d.members) {
        for (const [key, field] of Object.entries(member.fields)) {
          const guide = guideOf(field);
          const other = byKey.get(key);
          byKey.set(key, other === undefined ? guide : union(other, guide, UNION_DEPTH));
        }
      }
      return objectGuide([...byKey]);
    }),
};

function objectGuide(entries: readonly (readonly [string, Guide])[]): Guide {
  const fields = new Map<string, Guide>(entries);
  return { ...SCALAR, record: true, fields, keys: [...fields.keys()], keyGuides: [...fields.values()] };
}

/** How deep `union` compares two guides; below, it keeps everything. */
const UNION_DEPTH = 4;

/**
 * A guide that takes whatever `a` or `b` takes (it may take more: never less, so the read pass
 * sees every item either would keep). A guide still being built, and places below `depth`
 * levels, take everything.
 */
function union(a: Guide, b: Guide, depth: number): Guide {
  if (a === b || b === IGNORE) return a;
  if (a === IGNORE) return b;
  if (depth === 0 || a === ACCEPT_ALL || b === ACCEPT_ALL || isPending(a) || isPending(b)) return ACCEPT_ALL;
  // An object and a map at the same place: kept whole.
  if (
    (a.record && a.fields === undefined && b.record && b.fields !== undefined) ||
    (b.record && b.fields === undefined && a.record && a.fields !== undefined)
  ) {
    return ACCEPT_ALL;
  }
  const next = depth - 1;
  let element: Guide | undefined;
  let tuple: readonly Guide[] | undefined;
  if (a.array && b.array) {
    if (a.tuple !== undefined && b.tuple !== undefined && a.tuple.length === b.tuple.length) {
      tuple = a.tuple.map((g, i) => union(g, b.tuple![i]!, next));
    } else {
      // Arrays of any length: every element guided by what any position of either takes.
      element = [...(a.tuple ?? [a.element!]), ...(b.tuple ?? [b.element!])].reduce((x, y) => union(x, y, next));
    }
  } else if (a.array) {
    ({ element, tuple } = a);
  } else if (b.array) {
    ({ element, tuple } = b);
  } else {
    element = IGNORE;
  }
  let fields: Map<string, Guide> | undefined;
  if (a.fields !== undefined && b.fields !== undefined) {
    fields = new Map(a.fields);
    for (const [key, guide] of b.fields) {
      const other = fields.get(key);
      fields.set(key, other === undefined ? guide : union(other, guide, next));
    }
  } else {
    fields = (a.fields ?? b.fields) as Map<string, Guide> | undefined;
  }
  return {
    array: a.array || b.array,
    record: a.record || b.record,
    bytes: a.bytes || b.bytes,
    element,
    tuple,
    // A tuple merged into "arrays of any length" still has its length read: keep it.
    counted: a.counted || b.counted || (tuple === undefined && (a.tuple !== undefined || b.tuple !== undefined)),
    values: union(a.values, b.values, next),
    fields,
    keys: fields === undefined ? [] : [...fields.keys()],
    keyGuides: fields === undefined ? [] : [...fields.values()],
  };
}

function isPending(guide: Guide): boolean {
  for (const g of pending.values()) if (g === guide) return true;
  return false;
}
