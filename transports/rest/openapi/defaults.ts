import type { AnyType, Type } from '../../../core/types/index.ts';
import { encodeBase64 } from '../../../core/util/base64.ts';

/** A value JSON data cannot hold exactly: the `default` keyword is left out. */
export const NO_JSON = Symbol('no JSON form');

/**
 * A `.default()` value as the JSON data of a schema's `default`, projected onto its descriptor as
 * writing does (declared members only, absent optionals skipped): bytes as base64 in the JSON form,
 * 64-bit integers as numbers. {@link NO_JSON} when JSON data cannot say it exactly: a 64-bit
 * integer beyond 2^53 (a document's numbers are doubles), a non-finite number, bytes in the binary
 * form (a JSON document has no byte strings), or a value that does not fit its descriptor.
 */
export function defaultAsJson(type: Type, value: unknown, binary: boolean): unknown {
  const d = type as AnyType;
  switch (d.kind) {
    case 'string': return typeof value === 'string' ? value : NO_JSON;
    case 'bool': return typeof value === 'boolean' ? value : NO_JSON;
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': case 'f32': case 'f64':
      return typeof value === 'number' && Number.isFinite(value) ? value : NO_JSON;
    case 'i64': case 'u64': {
      const n = typeof value === 'bigint' ? Number(value) : value;
      // Safe integers only: beyond 2^53 the shortest text of a double is not the integer's digits.
      return typeof n === 'number' && Number.isSafeInteger(n) && (typeof value !== 'bigint' || BigInt(n) === value) ? n : NO_JSON;
    }
    case 'bytes': return value instanceof Uint8Array && !binary ? encodeBase64(value) : NO_JSON;
    case 'void': return null;
    case 'literal': return value === d.value ? value : NO_JSON;
    case 'enum': return d.values.includes(value as never) ? value : NO_JSON;
    case 'optional': return value === undefined ? NO_JSON : value === null ? null : defaultAsJson(d.inner, value, binary);
    case 'nullable': return value === null ? null : defaultAsJson(d.inner, value, binary);
    case 'array': return Array.isArray(value) ? all(value.map((v) => member(d.element, v, binary))) : NO_JSON;
    case 'tuple':
      return Array.isArray(value) && value.length === d.elements.length
        ? all(d.elements.map((e, i) => member(e, value[i], binary)))
        : NO_JSON;
    case 'map': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return NO_JSON;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        const json = defaultAsJson(d.values, v, binary);
        if (json === NO_JSON) return NO_JSON;
        // A key such as `__proto__` stays an own member of the data.
        Object.defineProperty(out, key, { value: json, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return NO_JSON;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(d.fields)) {
        const v = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
        if (v === undefined) {
          if (field.kind === 'optional') continue;
          return NO_JSON;
        }
        const json = defaultAsJson(field, v, binary);
        if (json === NO_JSON) return NO_JSON;
        out[key] = json;
      }
      return out;
    }
  }
}

/** An element of an array or tuple: an absent optional is written as `null`. */
function member(type: Type, value: unknown, binary: boolean): unknown {
  return value === undefined && type.kind === 'optional' ? null : defaultAsJson(type, value, binary);
}

function all(values: unknown[]): unknown {
  return values.includes(NO_JSON) ? NO_JSON : values;
}
