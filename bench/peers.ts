// The same payload schemas for the libraries a user would pick instead: TypeBox, Zod, ajv, fast-json-stringify.
import { Type as TB, type TSchema } from '@sinclair/typebox';
import { z } from 'zod';
import { jsonSchema, type AnyType, type Type } from '../index.ts';
import { INT_RANGES } from '../core/kinds/ranges.ts';

/** A TypeBox schema for `type` (64-bit members as plain integers, as TypeBox users hold them after JSON.parse). */
export function toTypeBox(type: Type): TSchema {
  const d = type as AnyType;
  switch (d.kind) {
    case 'string':
      return TB.String();
    case 'bool':
      return TB.Boolean();
    case 'i8':
    case 'i16':
    case 'i32':
    case 'u8':
    case 'u16':
    case 'u32': {
      const [minimum, maximum] = INT_RANGES[d.kind];
      return TB.Integer({ minimum, maximum });
    }
    case 'i64':
    case 'u64':
      return TB.Integer();
    case 'f32':
    case 'f64':
      return TB.Number();
    case 'array':
      return TB.Array(toTypeBox(d.element));
    case 'literal':
      return TB.Literal(d.value as string | number | boolean);
    case 'object':
      return TB.Object(Object.fromEntries(Object.entries(d.fields).map(([k, f]) => [k, toTypeBox(f)])), {
        additionalProperties: false,
      });
    // TypeBox has no discriminated union: its compiled checker tries the members in turn.
    case 'variant':
      return TB.Union(d.members.map(toTypeBox));
    default:
      throw new Error(`bench: no TypeBox form for ${d.kind}`);
  }
}

/** A strict Zod 4 schema for `type`. */
export function toZod(type: Type): z.ZodType {
  const d = type as AnyType;
  switch (d.kind) {
    case 'string':
      return z.string();
    case 'bool':
      return z.boolean();
    case 'i8':
    case 'i16':
    case 'i32':
    case 'u8':
    case 'u16':
    case 'u32': {
      const [min, max] = INT_RANGES[d.kind];
      return z.number().int().min(min).max(max);
    }
    // Zod's int() stops at 2^53; a Zod user holding 64-bit ids from JSON.parse checks plain numbers.
    case 'i64':
    case 'u64':
      return z.number();
    case 'f32':
    case 'f64':
      return z.number();
    case 'array':
      return z.array(toZod(d.element));
    case 'literal':
      return z.literal(d.value as string | number | boolean);
    case 'object':
      return z.strictObject(Object.fromEntries(Object.entries(d.fields).map(([k, f]) => [k, toZod(f)])));
    case 'variant':
      return z.discriminatedUnion(d.key, d.members.map(toZod) as never);
    default:
      throw new Error(`bench: no Zod form for ${d.kind}`);
  }
}

/** lacquer's own JSON Schema with `$ref`s inlined, for ajv and fast-json-stringify. */
export function inlinedJsonSchema(type: Type, opts: Parameters<typeof jsonSchema>[1]): Record<string, unknown> {
  const schema = jsonSchema(type, opts);
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: string }).$ref;
    if (ref !== undefined) return inline(defs[decodeURIComponent(ref.slice('#/$defs/'.length))]);
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== '$defs' && k !== '$schema')
        .map(([k, v]) => [k, inline(v)]),
    );
  };
  return inline(schema) as Record<string, unknown>;
}
