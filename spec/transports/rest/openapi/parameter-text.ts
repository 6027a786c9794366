// Requests built from a document's parameters, for the wire specs: how an OpenAPI validator reads
// a path or query text against a parameter's schema (`textFits`), the descriptor of each key a
// request target carries, values for them (fitting and not), and valid calls of an operation as
// the typed client writes them.
import fc from 'fast-check';
import { json } from '../../../../codecs/json/index.ts';
import type { ObjectType } from '../../../../core/descriptors/object.ts';
import type { method, Type } from '../../../../index.ts';
import { requestShape } from '../../../../transports/client/request-shape.ts';
import { argumentSources } from '../../../../transports/rest/arguments.ts';
import type { Operation } from '../../../../transports/protocol/pipeline/endpoints.ts';
import { verbFor } from '../../../../transports/rest/verb.ts';
import { arbJsonNear, arbValueOf } from '../../../support/arbitraries.ts';

/** An integer's text: decimal digits, no `+`, no leading zero, no `-0`. */
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;
/** A number's text: a JSON number. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export type ParamSchema = { type?: string | string[]; anyOf?: ParamSchema[]; minItems?: number; maxItems?: number };

function typesOf(schema: ParamSchema): string[] {
  if (schema.anyOf !== undefined) return schema.anyOf.flatMap(typesOf);
  return schema.type === undefined ? [] : [schema.type].flat();
}

/**
 * Whether a path or query text fits a scalar schema, as an OpenAPI validator reads it: the text is
 * the value of a string, of an integer when it is decimal digits, of a number when it is a JSON
 * number, of a boolean when it is `true` or `false`, of null when it is `null`; it fits when one
 * of the values the schema's types allow validates.
 */
export function textFits(schema: ParamSchema, text: string, check: (value: unknown) => boolean): boolean {
  const types = typesOf(schema);
  const values: unknown[] = [];
  if (types.includes('string')) values.push(text);
  if (types.includes('integer') && DECIMAL.test(text))
    values.push(integerValue(text, (schema as { format?: string }).format));
  else if (types.includes('number') && JSON_NUMBER.test(text)) values.push(Number(text));
  if (types.includes('boolean') && (text === 'true' || text === 'false')) values.push(text === 'true');
  if (types.includes('null') && text === 'null') values.push(null);
  return values.some(check);
}

const RANGES_64: Record<string, readonly [bigint, bigint]> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** The double next to `n` (finite, not 0), away from zero. */
function nextAway(n: number): number {
  const bits = new BigInt64Array(new Float64Array([n]).buffer);
  bits[0] = bits[0]! + 1n;
  return new Float64Array(bits.buffer)[0]!;
}

/**
 * The integer a decimal text states, as a double ajv decides the same for (with `'received'`
 * rounding, which takes any double an in-range integer rounds to): the nearest double, or for an
 * integer beyond a 64-bit format's range one beyond the double that range ends at.
 */
function integerValue(text: string, format: string | undefined): number {
  const exact = BigInt(text);
  let n = Number(exact);
  const range = format === undefined ? undefined : RANGES_64[format];
  if (range === undefined || (exact >= range[0] && exact <= range[1])) return n;
  while (n >= Number(range[0]) && n <= Number(range[1])) n = nextAway(n);
  return n;
}

/** A JSON value as the text a path segment or query value has: a string as it is, anything else as JSON. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The descriptor of each key of a request target, by key: an object parameter spread over the query gives its members. */
export function keyTypes(
  name: string,
  contract: ReturnType<typeof method>,
): Map<string, { readonly place: 'path' | 'query'; readonly type: Type }> {
  const sources = argumentSources('spec', contract, verbFor(name, contract));
  const out = new Map<string, { place: 'path' | 'query'; type: Type }>();
  for (const p of sources.path) out.set(p.name, { place: 'path', type: p.type });
  for (const p of sources.query) {
    const fields = p.type.kind === 'object' ? (p.type as ObjectType).fields : { [p.name]: p.type };
    for (const [key, type] of Object.entries(fields)) out.set(key, { place: 'query', type });
  }
  return out;
}

/** What a request carries for one key: nothing, or a JSON value near the descriptor or of it (as JSON), once or twice. */
export function arbKeyValue(
  place: 'path' | 'query',
  type: Type,
): fc.Arbitrary<{ readonly value: unknown; readonly twice: boolean } | undefined> {
  const present = type.kind === 'optional' ? (type as Type & { inner: Type }).inner : type;
  const valid = arbValueOf(present).map((v) => JSON.parse(json.encode(present, v as never)) as unknown);
  const value = fc.record({ value: fc.oneof(valid, arbJsonNear(type)), twice: fc.boolean() });
  return place === 'path' ? value.map((v) => ({ ...v, twice: false })) : fc.option(value, { freq: 4, nil: undefined });
}

/** An operation's path in the document: `/notes/:id` is `/notes/{id}`. */
export const templateOf = (prefix: string, op: Operation) => `${prefix}${op.path.replace(/:(\w+)/g, '{$1}')}`;

/**
 * A valid call of `op`: its request target below the prefix (path and query as the typed client
 * writes them), and its body's descriptor and value.
 */
export function arbCall(
  op: Operation,
): fc.Arbitrary<{ readonly target: string; readonly input: Type | undefined; readonly args: unknown }> {
  const sources = argumentSources('spec', op.contract, op.verb);
  const shape = requestShape(op.method, op.contract, sources);
  const { paramTypes, paramNames } = op.contract;
  const values = fc.tuple(...paramTypes.map((type) => arbValueOf(type)));
  const args =
    paramNames === undefined
      ? values
      : values.map((v) => [Object.fromEntries(paramNames.map((name, i) => [name, v[i]]))]);
  // A text no path segment carries (empty, a dot segment, a separator) is not a call the client makes.
  const built = args.map((a) => {
    try {
      return shape.build(a);
    } catch {
      return undefined;
    }
  });
  return built.filter((b) => b !== undefined).map(({ target, body }) => ({ target, input: sources.body, args: body }));
}
