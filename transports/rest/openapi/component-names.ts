import type { JsonSchema } from '../../../core/schema/json-schema.ts';

/** The schema of one named object in one mode and form. */
export interface Variant {
  readonly base: string;
  readonly mode: 'read' | 'write';
  readonly form: 'json' | 'binary';
  schema: JsonSchema | undefined;
  /** The named objects its schema refers to. */
  readonly refs: Set<string>;
}

/**
 * The component name of each variant: the object's name when one schema serves every use, else
 * `.input` / `.output` when what the server reads and what it writes differ (`required`), and
 * `.binary` for the byte-string form when bytes are written differently. A name differs as soon as
 * an object it refers to does, since their `$ref`s then differ. `same` compares two schemas with
 * `$ref`s by the object they name.
 */
export function nameComponents(
  variants: readonly Variant[],
  same: (a: JsonSchema | undefined, b: JsonSchema | undefined) => boolean,
  reserved: ReadonlySet<string>,
): Map<Variant, string> {
  const byBase = new Map<string, Variant[]>();
  for (const v of variants) byBase.set(v.base, [...(byBase.get(v.base) ?? []), v]);

  const split = (axis: 'mode' | 'form'): Set<string> => {
    const own = new Set<string>();
    const both = new Set<string>();
    for (const [base, vs] of byBase) {
      const values = new Set(vs.map((v) => v[axis]));
      if (values.size < 2) continue;
      both.add(base);
      // The pairs that differ only along `axis`.
      for (const a of vs) {
        for (const b of vs) {
          if (
            a[axis] < b[axis] &&
            (axis === 'mode' ? a.form === b.form : a.mode === b.mode) &&
            !same(a.schema, b.schema)
          )
            own.add(base);
        }
      }
    }
    const out = new Set(own);
    for (let changed = true; changed; ) {
      changed = false;
      for (const base of both) {
        if (out.has(base)) continue;
        if (byBase.get(base)!.some((v) => [...v.refs].some((r) => out.has(r)))) {
          out.add(base);
          changed = true;
        }
      }
    }
    return out;
  };
  const byMode = split('mode');
  const byForm = split('form');

  const names = new Map<Variant, string>();
  const taken = new Map<string, Variant>();
  for (const v of variants) {
    const name =
      v.base +
      (byMode.has(v.base) ? (v.mode === 'read' ? '.input' : '.output') : '') +
      (byForm.has(v.base) && v.form === 'binary' ? '.binary' : '');
    const other = taken.get(name);
    if (reserved.has(name) || (other !== undefined && other.base !== v.base)) {
      throw new TypeError(
        `openApi(): the component name '${name}' would be given to two schemas (of '${v.base}' and of '${other?.base ?? name}'); rename one of the objects`,
      );
    }
    taken.set(name, v);
    names.set(v, name);
  }
  return names;
}
