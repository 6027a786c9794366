import { expect } from 'chai';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { jsonSchema, ReadError, type AnyType, type Type } from '../../core/index.ts';
import { json } from '../../codecs/json/index.ts';
import { arbDescriptor, arbJsonNear, arbTyped } from '../support/arbitraries.ts';

describe('properties of reading and writing', () => {
  it('json.decode(json.encode(v)) equals v for every descriptor and value', () => {
    fc.assert(
      fc.property(arbTyped, fc.boolean(), ({ type, value }, prettify) => {
        const text = json.encode(type, value as never, { prettify });
        expect(json.decode(type, text)).to.deep.equal(value);
      }),
      { numRuns: 400 },
    );
  });

  it('an independent JSON Schema validator accepts a value exactly when json.decode does', () => {
    // ownProperties: a key like `constructor` counts only when the document has it, as in lacquer.
    const ajv = new Ajv2020({ strict: false, ownProperties: true, validateFormats: false });
    const arbCase = arbDescriptor.chain((type) =>
      fc.record({
        type: fc.constant(type),
        value: arbJsonNear(type),
        opts: fc.record({ errorOnMissingKeys: fc.boolean(), errorOnUnknownKeys: fc.boolean() }),
      }),
    );
    fc.assert(
      fc.property(arbCase, ({ type, value, opts }) => {
        // ajv 8 does not enforce `required: [""]`; lacquer does. Leave the empty key out here.
        fc.pre(!hasEmptyKey(type));
        const text = JSON.stringify(value);
        const validatorAccepts = ajv.validate(jsonSchema(type, opts), value);
        let lacquerAccepts = true;
        try {
          json.decode(type, text, opts);
        } catch (e) {
          if (!(e instanceof ReadError)) throw e;
          lacquerAccepts = false;
        }
        expect(lacquerAccepts, `${text} against ${JSON.stringify(jsonSchema(type, opts))}`).to.equal(validatorAccepts);
      }),
      { numRuns: 1500 },
    );
  });
});

/** Whether `type` or any descriptor inside it is an object with a member named "". */
function hasEmptyKey(type: Type): boolean {
  const d = type as AnyType;
  switch (d.kind) {
    case 'object': return Object.hasOwn(d.fields, '') || Object.values(d.fields).some(hasEmptyKey);
    case 'array': return hasEmptyKey(d.element);
    case 'map': return hasEmptyKey(d.values);
    case 'tuple': return d.elements.some(hasEmptyKey);
    case 'optional': case 'nullable': return hasEmptyKey(d.inner);
    default: return false;
  }
}
