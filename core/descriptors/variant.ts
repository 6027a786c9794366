import type { LiteralType } from './literal.ts';
import type { Fields, ObjectType } from './object.ts';
import { Type } from './type.ts';

/** A member of `t.variant(key, ...)`: an object whose member `key` is a `t.literal`. */
export type VariantMember<K extends string> = ObjectType<
  Fields & { readonly [P in K]: LiteralType<string | number | boolean> }
>;

/**
 * A discriminated union of objects: the value of member `key`, a literal in each, picks the object
 * that reads or writes the rest (`t.variant('type', [Circle, Square])`). Reading without the key
 * is a `missing_key` whatever `errorOnMissingKeys` says; a value no member has is a
 * `type_mismatch` naming the allowed ones. Absent keys default to the first member's default.
 */
export class VariantType<
  K extends string = string,
  M extends readonly VariantMember<K>[] = readonly VariantMember<K>[],
> extends Type<M[number]['~out'], M[number]['~in']> {
  readonly kind = 'variant';
  /** Each member by the value of its discriminant. */
  readonly byValue: ReadonlyMap<string | number | boolean, M[number]>;

  constructor(
    readonly key: K,
    readonly members: M,
  ) {
    super();
    const where = `t.variant(${JSON.stringify(key)})`;
    if (typeof key !== 'string') throw new TypeError('t.variant(): the discriminant is a key name (a string)');
    if (!Array.isArray(members) || members.length === 0)
      throw new TypeError(`${where}: give at least one member object`);
    const byValue = new Map<string | number | boolean, M[number]>();
    members.forEach((member, i) => {
      if (member?.kind !== 'object')
        throw new TypeError(`${where}: member ${i} is ${member?.kind ?? String(member)}, not a t.object()`);
      const field = Object.hasOwn(member.fields, key) ? member.fields[key] : undefined;
      if (field?.kind !== 'literal') {
        throw new TypeError(
          `${where}: member ${i}${nameOf(member)} needs ${JSON.stringify(key)}: t.literal(...), got ${field?.kind ?? 'no such member'}`,
        );
      }
      const value = (field as LiteralType).value;
      if (value === null)
        throw new TypeError(
          `${where}: member ${i}${nameOf(member)} has t.literal(null) as its discriminant, which cannot tell members apart from an absent key`,
        );
      if (byValue.has(value))
        throw new TypeError(`${where}: two members have ${JSON.stringify(value)} as their discriminant`);
      byValue.set(value, member);
    });
    this.byValue = byValue;
  }

  /** The discriminant values, in the members' order: what an error names as allowed. */
  get values(): (string | number | boolean)[] {
    return [...this.byValue.keys()];
  }
}

function nameOf(member: ObjectType): string {
  return member.name === undefined ? '' : ` (${member.name})`;
}
