import { hasEmptyKey } from '../support/empty-key.ts';
import { expect } from 'chai';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { jsonSchema, ReadError } from '../../index.ts';
import { json } from '../../codecs/json/index.ts';
import { arbDescriptor, arbJsonNear, arbMissingKeys, arbTyped } from '../support/arbitraries.ts';

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

  it('an independent JSON Schema validator accepts a value exactly when json.decode does', function () {
    // ajv compiles a schema per case: 1,500 of them take some seconds, more on a loaded machine.
    this.timeout(120_000);
    // ownProperties: a key like `constructor` counts only when the document has it, as in lacquer.
    const ajv = new Ajv2020({ strict: false, ownProperties: true });
    addFormats.default(ajv, ['email', 'uuid', 'uri', 'date-time']);
    const arbCase = arbDescriptor.chain((type) =>
      fc.record({
        type: fc.constant(type),
        value: arbJsonNear(type),
        opts: fc.record({ errorOnMissingKeys: arbMissingKeys, errorOnUnknownKeys: fc.boolean() }),
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
