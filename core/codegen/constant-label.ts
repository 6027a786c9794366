// What a constant passed to generated code is, in one line, for the comment that heads the printed
// source (`// c3: …`): derived from the value, so generators label nothing themselves.
import type { Type } from '../descriptors/type.ts';
import { quoteText } from '../errors/failure.ts';

/** A label is cut after this many characters: one line of the printed source. */
const MAX_LABEL = 100;

/**
 * The label of `value`: a function's name (or, without one, the start of its source), a class's name, a regular
 * expression's source, a descriptor's kind and name, a collection's size, a primitive as written.
 * One line: line terminators (which would end the comment and let the rest run as code) become
 * spaces.
 */
export function constantLabel(value: unknown): string {
  return oneLine(describe(value));
}

/** `label` as one line of at most `MAX_LABEL` characters, safe inside a `//` comment. */
export function oneLine(label: string): string {
  const line = label
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= MAX_LABEL ? line : `${line.slice(0, MAX_LABEL - 1)}…`;
}

function describe(value: unknown): string {
  switch (typeof value) {
    case 'function':
      return describeFunction(value as (...args: never[]) => unknown);
    case 'string':
      return `the string ${quoteText(value)}`;
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'object':
      return value === null ? 'null' : describeObject(value);
    default:
      return String(value);
  }
}

function describeFunction(fn: (...args: never[]) => unknown): string {
  const source = Function.prototype.toString.call(fn);
  if (source.startsWith('class')) return `class ${fn.name}`;
  // A function without a name is shown by its source (`() => 0n`), which says what it does.
  return fn.name === '' ? `function ${source}` : `function ${fn.name}`;
}

/**
 * A descriptor, told by its shape: a string `kind` and the `~standard` member every descriptor has.
 * Not `instanceof Type`: a value import of the descriptors would run back up a layer, into a cycle.
 */
function isDescriptor(value: object): value is Type {
  return typeof (value as { readonly kind?: unknown }).kind === 'string' && '~standard' in value;
}

function describeObject(value: object): string {
  if (isDescriptor(value)) {
    const named = (value as { readonly name?: unknown }).name;
    return `descriptor t.${value.kind}()${typeof named === 'string' && named !== '' ? ` ${quoteText(named)}` : ''}`;
  }
  if (value instanceof RegExp) return `RegExp ${String(value)}`;
  if (value instanceof Set) return `Set of ${value.size}`;
  if (value instanceof Map) return `Map of ${value.size}`;
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  const proto = Object.getPrototypeOf(value) as { readonly constructor?: { readonly name?: unknown } } | null;
  const kind = proto === null || proto === Object.prototype ? 'object' : String(proto.constructor?.name ?? 'object');
  const keys = Object.keys(value);
  return keys.length === 0 ? kind : `${kind} { ${keys.join(', ')} }`;
}
