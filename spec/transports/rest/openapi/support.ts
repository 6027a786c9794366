// What the OpenAPI specs share: the two independent validators, ajv set up to check instances
// against the document's own schemas (with the OpenAPI number formats asserted), and helpers to
// walk a document.
import addFormats from 'ajv-formats';
import { validate as readmeValidate } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { decode as decodeMsgpack } from '@msgpack/msgpack';
import { Decoder as CborDecoder } from 'cbor-x';
import { Unpackr } from 'msgpackr';
import type { OpenApiDocument } from '../../../../index.ts';

/**
 * The errors two independent OpenAPI 3.1 validators find in `doc` (both get their own copy). A 3.2
 * document (one holding a stream) is checked by the one that knows 3.2 (@readme/openapi-parser
 * refuses it as unsupported): `readme` is then `null`.
 */
export async function validatorErrors(doc: OpenApiDocument): Promise<{ seriousme: unknown; readme: unknown }> {
  const text = JSON.stringify(doc);
  const seriousme = await new Validator().validate(JSON.parse(text));
  if (doc.openapi.startsWith('3.2.')) return { seriousme: seriousme.valid ? null : seriousme.errors, readme: null };
  // A tuple is `prefixItems` with `items: false`, a valid items schema in OpenAPI 3.1 (JSON Schema
  // 2020-12); this parser's lint rule "array-without-items" takes `false` for a missing `items`, so
  // it reports that rule as a warning, and the spec checks those warnings are about tuples only.
  const readme = await readmeValidate(JSON.parse(text), {
    validate: { rules: { openapi: { 'array-without-items': 'warning' } } },
  });
  const tupleWarnings = readme.warnings.filter(
    (w) => !/is an array, so it should include an `items` schema/.test(w.message),
  );
  return {
    seriousme: seriousme.valid ? null : seriousme.errors,
    readme: readme.valid && tupleWarnings.length === 0 ? null : readme,
  };
}

/** The 64-bit bounds, exactly. */
const RANGES = { int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n] } as const;

/** The integer a number's JSON text states (its shortest decimal form), or undefined when it is no integer text. */
function integerText(n: number): bigint | undefined {
  const text = JSON.stringify(n);
  return /^-?\d+$/.test(text) ? BigInt(text) : undefined;
}

/**
 * How ajv checks the 64-bit formats, whose values it sees as doubles:
 * - `'sent'`: for JSON a test wrote from doubles (`JSON.stringify`): the format holds when the
 *   integer the text states is in range, exactly as the server reads that text;
 * - `'received'`: for JSON the server wrote with exact integers (`18446744073709551615`), which
 *   `JSON.parse` rounds (to 2^64): the format holds for any double an in-range integer rounds to.
 */
export type Rounding = 'sent' | 'received';

/** How the 64-bit formats are checked by the validator made next (see {@link Rounding}). */
let rounding: Rounding = 'received';
let shared: Ajv2020 | undefined;
let documents = 0;

/** One ajv (JSON Schema 2020-12) for every document, with the OpenAPI number formats asserted. */
function sharedAjv(): Ajv2020 {
  if (shared !== undefined) return shared;
  const ajv = new Ajv2020({ strict: false, ownProperties: true, validateFormats: true, allErrors: false });
  const int = (min: number, max: number) => ({
    type: 'number' as const,
    validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
  });
  ajv
    .addFormat('int8', int(-128, 127))
    .addFormat('uint8', int(0, 255))
    .addFormat('int16', int(-32768, 32767))
    .addFormat('uint16', int(0, 65535))
    .addFormat('int32', int(-(2 ** 31), 2 ** 31 - 1))
    .addFormat('uint32', int(0, 2 ** 32 - 1))
    .addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) })
    .addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  // The string formats lacquer checks, as ajv-formats defines them.
  addFormats.default(ajv, ['email', 'uuid', 'uri', 'date-time']);
  for (const [name, [min, max]] of Object.entries(RANGES)) {
    ajv.addFormat(name, {
      type: 'number',
      validate: (n: number) => {
        if (rounding === 'received') return Number.isInteger(n) && n >= Number(min) && n <= Number(max);
        const b = integerText(n);
        return b !== undefined && b >= min && b <= max;
      },
    });
  }
  return (shared = ajv);
}

/** Checks data against the schema at a JSON Pointer of the document; ajv's errors when it fails. */
export type DocValidator = (pointer: string, rounding: Rounding) => { (data: unknown): boolean; errors: unknown };

/** A validator of data against the schemas of `doc` (which ajv holds as it is, `$ref`s and all). */
export function ajvFor(doc: OpenApiDocument): DocValidator {
  const ajv = sharedAjv();
  const id = `https://lacquer.test/openapi-${documents++}.json`;
  ajv.addSchema(JSON.parse(JSON.stringify(doc)), id);
  const compiled = new Map<string, ValidateFunction>();
  return (pointer, how) => {
    let v = compiled.get(pointer);
    if (v === undefined) compiled.set(pointer, (v = ajv.compile({ $ref: `${id}#${pointer}` })));
    const validate = v;
    const check = Object.assign(
      (data: unknown) => {
        rounding = how;
        const ok = validate(data);
        check.errors = validate.errors;
        return ok;
      },
      { errors: undefined as unknown },
    );
    return check;
  };
}

/** A JSON Pointer token. */
export const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer of the schema of one body: `/paths/~1api~1x/post/responses/200/content/application~1json/schema`. */
export function schemaPointer(path: string, verb: string, where: 'request' | string, mediaType: string): string {
  const base = `/paths/${token(path)}/${verb.toLowerCase()}`;
  const at = where === 'request' ? `${base}/requestBody` : `${base}/responses/${where}`;
  return `${at}/content/${token(mediaType)}/schema`;
}

/** Follows a local `$ref` (`#/components/schemas/User`) from the document's root. */
export function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key))
        throw new Error(`${ref} does not resolve (at '${key}')`);
      return (at as Record<string, unknown>)[key];
    }, doc);
}

/** Every `$ref` in `value`. */
export function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/**
 * A value decoded by an independent MessagePack or CBOR decoder, as the JSON data its schema
 * describes: maps as objects (a `__proto__` key an own member), byte strings as strings of one
 * character per byte (the binary form's `contentMediaType` strings), bigints as numbers.
 */
export function asInstance(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  // A binary timestamp is a date-time (the `x-wire: timestamp` of its schema).
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return String.fromCharCode(...value);
  if (Array.isArray(value)) return value.map(asInstance);
  if (value instanceof Map) {
    const out = {};
    for (const [k, v] of value)
      Object.defineProperty(out, String(k), {
        value: asInstance(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  if (typeof value === 'object' && value !== null) return asInstance(new Map(Object.entries(value)));
  return value;
}

/** An answer body as data, decoded by a decoder other than lacquer's. */
export function decodeIndependently(mediaType: string, body: Buffer): unknown {
  if (mediaType.endsWith('json')) return JSON.parse(body.toString('utf8'));
  if (mediaType.endsWith('msgpack')) {
    try {
      return asInstance(decodeMsgpack(body, { useBigInt64: true }));
    } catch (e) {
      // @msgpack/msgpack refuses a map key `__proto__`, which lacquer's maps and t.unknown() values
      // may hold; msgpackr reads it into a Map.
      if (!/__proto__/.test((e as Error).message)) throw e;
      return asInstance(new Unpackr({ mapsAsObjects: false, useRecords: false, int64AsType: 'bigint' }).unpack(body));
    }
  }
  if (mediaType.endsWith('cbor'))
    return asInstance(new CborDecoder({ mapsAsObjects: false, useRecords: false }).decode(body));
  throw new Error(`no decoder for ${mediaType}`);
}
