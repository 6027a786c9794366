import { Failure } from '../errors/failure.ts';
import { unwrapLazy } from '../descriptors/unwrap-lazy.ts';
import type { Type } from '../descriptors/type.ts';
import type { ConstraintRule } from '../kinds/constraints.ts';

// What arrays a writer refuses, in every codec and on every path, before it walks them: one longer
// than MAX_WRITE_ITEMS, and one with a hole (an index never set, or deleted). `new Array(4294967295)`
// is four billion holes in no memory: walked element by element, it would take minutes and end in
// a crash, where JSON.stringify throws at once.

/**
 * The most elements an array (`t.array`, or an array in `t.unknown()`) may have to be written:
 * 2^28, 268,435,456. A longer one is `limit_exceeded` before any element is written. It is the
 * bound JSON.stringify has (each element takes two characters at least, and V8's longest string
 * is 2^29 − 24 characters), and below MessagePack's own (array 32 counts 2^32 − 1 elements).
 */
export const MAX_WRITE_ITEMS = 2 ** 28;

/** The failure of an array longer than `MAX_WRITE_ITEMS`. */
export function tooManyItems(length: number): Failure {
  return new Failure(
    'limit_exceeded',
    `cannot write an array of ${length} elements: writers write ${MAX_WRITE_ITEMS} at most`,
  );
}

/** The failure of a hole, at its index (the container adds the index to the path). */
export function hole(): Failure {
  return new Failure('type_mismatch', 'cannot write a hole of a sparse array: an element never set is no value');
}

/**
 * Whether an element of this descriptor may read as `undefined` from an array and still be written
 * (`t.optional`, `t.nullable` and `t.void` write it as null): only there is a hole told apart from
 * an `undefined` element, with an `in` test; any other descriptor refuses `undefined` already.
 */
export function takesUndefined(type: Type): boolean {
  const kind = unwrapLazy(type).kind;
  return kind === 'optional' || kind === 'nullable' || kind === 'void';
}

/**
 * For generated writers: statements bailing unless `v` is an array a writer takes, of `MAX_WRITE_ITEMS`
 * elements at most and within the `count` constraint (`minItems`, `maxItems`), leaving its length
 * in `n`; the closure writer then gives the failure. `ref` names the constants it uses.
 */
export function arrayCheckCode(
  count: ConstraintRule<number> | undefined,
  bail: string,
  ref: (value: unknown) => string,
): string {
  const length =
    count === undefined
      ? ''
      : `
  if (!(${count.passCode('n', ref)})) ${bail}();`;
  return `if (!Array.isArray(v)) ${bail}();
  const n = v.length;
  if (n > ${MAX_WRITE_ITEMS}) ${bail}();${length}`;
}

/**
 * For generated writers: a statement bailing on a hole at index `i` of the array `array`, whose
 * element was loaded into `x`, where the element's descriptor would write `undefined` (see
 * `takesUndefined`); the closure writer then gives the failure. Nothing for any other descriptor,
 * whose check bails on `undefined` anyway: the common arrays pay nothing per element.
 */
export function holeCheckCode(element: Type, array: string, x: string, i: string, bail: string): string {
  return takesUndefined(element) ? ` if (${x} === undefined && !(${i} in ${array})) ${bail}();` : '';
}
