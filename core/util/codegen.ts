// Generated code is the fast path for readers and writers; closures are the path that always works.
// Under a Content-Security-Policy without 'unsafe-eval' (or node --disallow-code-generation-from-strings)
// `new Function` throws, and lacquer uses the closures alone.

let available: boolean | undefined;

/** Whether `new Function` works here; probed once. */
export function canGenerateCode(): boolean {
  if (available === undefined) {
    try {
      available = new Function('return true')() === true;
    } catch {
      available = false;
    }
  }
  return available;
}

/** Builds a function from generated source that receives `constants` as `c0`, `c1`, …. */
export function buildFunction<F>(constants: readonly unknown[], body: string): F {
  const names = constants.map((_, i) => `c${i}`);
  return new Function(...names, body)(...constants) as F;
}

/** Collects the values generated code refers to; each gets a name `cN`. */
export class Constants {
  readonly values: unknown[] = [];
  private readonly index = new Map<unknown, string>();

  /** The name under which generated code sees `value`. */
  ref(value: unknown): string {
    let name = this.index.get(value);
    if (name === undefined) {
      name = `c${this.values.length}`;
      this.values.push(value);
      this.index.set(value, name);
    }
    return name;
  }
}

/** Thrown by generated code when the input leaves its fast path; the closure path then decides. */
export const BAIL = Symbol('lacquer.bail');

export function bail(): never {
  throw BAIL;
}

/**
 * Statements returning an object of `fields` built from the locals `a0`, `a1`, …: one literal, so
 * V8 sees one shape, or, when a member is optional, key by key, leaving out optional members whose
 * local is `undefined`.
 */
export function returnObject(fields: readonly (readonly [string, { readonly kind: string }])[]): string[] {
  if (!fields.some(([, field]) => field.kind === 'optional')) {
    return [`return { ${fields.map(([key], i) => `${JSON.stringify(key)}: a${i}`).join(', ')} };`];
  }
  const lines = ['const out = {};'];
  fields.forEach(([key, field], i) => {
    const set = `out[${JSON.stringify(key)}] = a${i};`;
    lines.push(field.kind === 'optional' ? `if (a${i} !== undefined) ${set}` : set);
  });
  lines.push('return out;');
  return lines;
}
