import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { t, jsonSchema, writeJsonSchema, JSON_SCHEMA_DIALECT } from '../../../index.ts';

const User = t.object(
  { id: t.u64(), name: t.string(), weight: t.f32(), nick: t.optional(t.string()) },
  { name: 'User' },
);

describe('core/schema: JSON Schema', () => {
  it('writes draft 2020-12 with named objects in $defs', () => {
    const schema = jsonSchema(t.object({ owner: User, team: t.array(User) }));
    expect(schema.$schema).to.equal(JSON_SCHEMA_DIALECT);
    expect(schema.properties).to.deep.equal({
      owner: { $ref: '#/$defs/User' },
      team: { type: 'array', items: { $ref: '#/$defs/User' } },
    });
    expect(Object.keys(schema.$defs as object)).to.deep.equal(['User']);
  });

  it('lists no required keys when errorOnMissingKeys is off', () => {
    const def = (jsonSchema(User).$defs as Record<string, Record<string, unknown>>).User!;
    expect(def).not.to.have.property('required');
  });

  it('lists exactly the non-nullable keys as required when errorOnMissingKeys is on', () => {
    const def = (jsonSchema(User, { errorOnMissingKeys: true }).$defs as Record<string, Record<string, unknown>>).User!;
    expect(def.required).to.deep.equal(['id', 'name', 'weight']);
  });

  it('lets requiresKey decide required, as reading does (rule 5)', () => {
    const T = t.object(
      { id: t.i32(), _rev: t.i32(), note: t.optional(t.string()) },
      { requiresKey: (k) => !k.startsWith('_') },
    );
    expect(jsonSchema(T, { errorOnMissingKeys: true }).required).to.deep.equal(['id', 'note']);
  });

  it('writes additionalProperties: false exactly when unknown keys are refused', () => {
    expect(jsonSchema(t.object({ a: t.i8() })).additionalProperties).to.equal(false);
    expect(jsonSchema(t.object({ a: t.i8() }), { errorOnUnknownKeys: false })).not.to.have.property(
      'additionalProperties',
    );
  });

  it('gives integer kinds their bounds', () => {
    expect(jsonSchema(t.u8())).to.include({ type: 'integer', minimum: 0, maximum: 255 });
    expect(jsonSchema(t.i32())).to.include({ type: 'integer', minimum: -2147483648, maximum: 2147483647 });
  });

  it('keeps 64-bit bounds at doubles whose text stays inside the exact range', () => {
    const { minimum, maximum } = jsonSchema(t.i64()) as { minimum: number; maximum: number };
    expect(BigInt(JSON.stringify(minimum)) >= -(2n ** 63n)).to.equal(true);
    expect(BigInt(JSON.stringify(maximum)) <= 2n ** 63n - 1n).to.equal(true);
    const u = jsonSchema(t.u64()) as { maximum: number };
    expect(BigInt(JSON.stringify(u.maximum)) <= 2n ** 64n - 1n).to.equal(true);
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(jsonSchema(t.u64()), 2 ** 64)).to.equal(false);
    expect(ajv.validate(jsonSchema(t.i64()), -(2 ** 63))).to.equal(false);
  });

  it('describes every other kind', () => {
    expect(jsonSchema(t.nullable(t.string()))).to.deep.include({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(jsonSchema(t.tuple([t.bool(), t.string()]))).to.deep.include({
      type: 'array',
      prefixItems: [{ type: 'boolean' }, { type: 'string' }],
      items: false,
      minItems: 2,
      maxItems: 2,
    });
    expect(jsonSchema(t.map(t.f64()))).to.deep.include({ type: 'object', additionalProperties: { type: 'number' } });
    expect(jsonSchema(t.literal('x'))).to.deep.include({ const: 'x' });
    expect(jsonSchema(t.enum(['a', 'b']))).to.deep.include({ enum: ['a', 'b'] });
    expect(jsonSchema(t.bytes())).to.include({ type: 'string', contentEncoding: 'base64' });
  });

  it('writes the empty tuple as an array of no items: prefixItems may not be empty', () => {
    const schema = jsonSchema(t.object({ none: t.tuple([]), one: t.tuple([t.tuple([])]) }));
    expect(schema.properties).to.deep.equal({
      none: { type: 'array', items: false, minItems: 0, maxItems: 0 },
      one: {
        type: 'array',
        prefixItems: [{ type: 'array', items: false, minItems: 0, maxItems: 0 }],
        items: false,
        minItems: 1,
        maxItems: 1,
      },
    });
    const validator = new Ajv2020({ strict: false });
    expect(validator.validateSchema(schema), JSON.stringify(validator.errors)).to.equal(true);
    expect(validator.validate(schema, { none: [], one: [[]] })).to.equal(true);
    expect(validator.validate(schema, { none: [1], one: [[]] })).to.equal(false);
  });

  it('writes .default() values as JSON data', () => {
    const T = t.object({
      limit: t.i32().default(10),
      id: t.u64().default(7n),
      raw: t.bytes().default(new Uint8Array([255])),
    });
    expect(jsonSchema(T).properties).to.deep.include({
      limit: { type: 'integer', minimum: -2147483648, maximum: 2147483647, default: 10 },
    });
    const props = jsonSchema(T).properties as Record<string, { default: unknown }>;
    expect(props.id!.default).to.equal(7);
    expect(props.raw!.default).to.equal('/w==');
  });

  it('refuses two different objects with the same name', () => {
    const A = t.object({ a: t.i8() }, { name: 'Thing' });
    const B = t.object({ b: t.i8() }, { name: 'Thing' });
    expect(() => jsonSchema(t.tuple([A, B]))).to.throw(TypeError, "'Thing'");
  });

  it('writeJsonSchema gives the same schema as text, indented with prettify', () => {
    expect(JSON.parse(writeJsonSchema(User))).to.deep.equal(jsonSchema(User));
    expect(writeJsonSchema(User, { prettify: true })).to.equal(JSON.stringify(jsonSchema(User), null, 2));
  });
});
