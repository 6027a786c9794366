import type { OptionalType } from '../descriptors/optional.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';

/**
 * What `t.optional(T)` reads a `null` as, stated once for every reader (closures, generated code,
 * the codecs' direct readers): `true` when the `null` is absence (`undefined`, the member left
 * out), as for `t.optional(t.string())`; `false` when `T` holds `null` itself (`t.nullable`,
 * `t.unknown()`, `t.literal(null)`, also behind `t.lazy` or another `t.optional`), whose reader
 * then reads it. Presence is presence: `t.optional(t.nullable(T))` reads `{"a": null}` as
 * `{ a: null }`, so a PATCH can clear a field.
 */
export function nullIsAbsent(optional: OptionalType): boolean {
  return !holdsNull(optional.inner);
}

const holdsNull = (type: Type): boolean => visit(type, nullHolders);

const no = () => false;
const yes = () => true;
const nullHolders: Visitor<boolean> = {
  nullable: yes,
  unknown: yes,
  literal: (d) => d.value === null,
  optional: (d) => holdsNull(d.inner),
  lazy: (d) => holdsNull(d.target),
  string: no,
  bool: no,
  int: no,
  bigint: no,
  float: no,
  bytes: no,
  timestamp: no,
  void: no,
  enum: no,
  array: no,
  map: no,
  tuple: no,
  object: no,
  variant: no,
};
