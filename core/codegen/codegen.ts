// Generated code is the fast path for readers and writers; closures are the path that always works.
// Under a Content-Security-Policy without 'unsafe-eval' (or node --disallow-code-generation-from-strings)
// `new Function` throws, and lacquer uses the closures alone.
import { constantLabel, oneLine } from './constant-label.ts';

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

/**
 * Thrown by `buildFunction` when the platform refuses `new Function` although it allowed it before:
 * workerd allows it only while a Worker starts. From then on `canGenerateCode()` is false, and the
 * closure path is used without a report: this is the platform, not a bug.
 */
export const CODE_GENERATION_REFUSED = Symbol('lacquer.codeGenerationRefused');

/** A function `new Function` made; its `toString()` is the whole generated source. */
export type Factory = (...constants: unknown[]) => unknown;

/** What `buildingAs` has set: the sourceURL of the code being built, and the factories built so far. */
let building: { readonly url: string; readonly factories: Factory[] } | undefined;
let unnamed = 0;

/**
 * Builds a function from generated source that receives `constants` as `c0`, `c1`, …. The source
 * starts with a comment naming each constant (`// c3: RegExp /^[a-z]+$/u`: the label given to
 * `Constants.ref`, else one derived from the value) and ends in `//# sourceURL=<url>`, the name
 * debuggers list it under and stack traces show: `url`, else the one `buildingAs` set (the fast
 * path names the code after its codec and descriptor, without the generators knowing), else
 * `lacquer/generated/<n>.js`.
 */
export function buildFunction<F>(constants: Constants | readonly unknown[], body: string, url?: string): F {
  const values = constants instanceof Constants ? constants.values : constants;
  const labels = constants instanceof Constants ? constants.labels : [];
  const names = values.map((_, i) => `c${i}`);
  const heading = values.map((value, i) => `// c${i}: ${labels[i] ?? constantLabel(value)}\n`).join('');
  let factory: Factory;
  try {
    factory = new Function(
      ...names,
      `${heading}${body}\n//# sourceURL=${url ?? building?.url ?? `lacquer/generated/${++unnamed}.js`}`,
    ) as Factory;
  } catch (e) {
    // A syntax error is a generator's bug, reported by the caller; an EvalError is the platform saying no.
    if (!(e instanceof EvalError)) throw e;
    available = false;
    throw CODE_GENERATION_REFUSED;
  }
  building?.factories.push(factory);
  return factory(...values) as F;
}

/**
 * Runs `generate` with every function it builds named `url` (see `buildFunction`); returns its
 * result and the factories it built, whose `toString()` is the generated source.
 */
export function buildingAs<T>(
  url: string,
  generate: () => T,
): { readonly result: T; readonly factories: readonly Factory[] } {
  const outer = building;
  const factories: Factory[] = [];
  building = { url, factories };
  try {
    return { result: generate(), factories };
  } finally {
    building = outer;
  }
}

/** Collects the values generated code refers to; each gets a name `cN`. */
export class Constants {
  readonly values: unknown[] = [];
  /** What the callers said each value is (see `ref`), by index; `buildFunction` derives the others. */
  readonly labels: (string | undefined)[] = [];
  private readonly index = new Map<unknown, string>();

  /**
   * The name under which generated code sees `value`. `label` says what it is in the comment that
   * heads the printed source, in place of the label derived from the value.
   */
  ref(value: unknown, label?: string): string {
    let name = this.index.get(value);
    if (name === undefined) {
      name = `c${this.values.length}`;
      this.values.push(value);
      this.labels.push(undefined);
      this.index.set(value, name);
    }
    if (label !== undefined) this.labels[Number(name.slice(1))] = oneLine(label);
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
