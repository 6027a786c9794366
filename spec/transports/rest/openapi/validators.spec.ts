// The documents validate against the OpenAPI 3.1 schema with two independent validators:
// @seriousme/openapi-schema-validator (the official JSON Schemas, with $refs resolved) and
// @readme/openapi-parser (the same schemas, dereferencing, and checks of its own: unique
// operationIds, component names, security schemes).
import { expect } from 'chai';
import fc from 'fast-check';
import { openApi } from '../../../../index.ts';
import { createExampleServer } from '../../../../examples/app.ts';
import { arbRoutedService, arbService, registryFor } from './arbitraries.ts';
import { notesRegistry, zooRegistry } from './fixtures.ts';
import { refsIn, resolve, validatorErrors } from './support.ts';

const info = { title: 'Test', version: '0.1.0' };

describe('openApi: the document validates with two OpenAPI 3.1 validators', function () {
  this.timeout(120_000);

  it('for the example application, an OpenAPI 3.2 document (it holds a stream), with the validator that knows 3.2', async () => {
    const { registry } = createExampleServer({ log: () => {} });
    const doc = openApi(registry.endpoints, { prefix: '/api', info, servers: [{ url: 'http://127.0.0.1:8080' }] });
    expect(doc.openapi).to.equal('3.2.0');
    expect(await validatorErrors(doc)).to.deep.equal({ seriousme: null, readme: null });
  });

  it('for a service using every descriptor kind and security scheme', async () => {
    const doc = openApi(zooRegistry().endpoints, { prefix: '/api', info });
    expect(await validatorErrors(doc)).to.deep.equal({ seriousme: null, readme: null });
  });

  it('for routes and named parameters: shared path items, path and query parameters, bodies by name', async () => {
    for (const errorOnMissingKeys of [false, true]) {
      const doc = openApi(notesRegistry({ errorOnMissingKeys }).endpoints, { prefix: '/api', info });
      expect(await validatorErrors(doc)).to.deep.equal({ seriousme: null, readme: null });
    }
  });

  it('for generated services with routes: path and query parameters of every kind a target carries', async () => {
    let parameters = 0;
    await fc.assert(
      fc.asyncProperty(arbRoutedService, async (svc) => {
        const doc = openApi(registryFor(svc).endpoints, { prefix: '/gen', info });
        parameters += Object.values(doc.paths)
          .flatMap((item) => Object.values(item))
          .reduce((n, o) => n + ((o.parameters as unknown[] | undefined)?.length ?? 0), 0);
        expect(await validatorErrors(doc), JSON.stringify(doc)).to.deep.equal({ seriousme: null, readme: null });
      }),
      { numRuns: 40 },
    );
    expect(parameters, 'parameters in the generated documents').to.be.greaterThan(60);
  });

  it('for generated services: named objects, defaults, optional and nullable, 64-bit integers, bytes, maps, tuples', async () => {
    let named = 0;
    await fc.assert(
      fc.asyncProperty(arbService, async (svc) => {
        const doc = openApi(registryFor(svc).endpoints, { prefix: '/gen', info });
        named += Object.keys(doc.components.schemas).length - 1;
        for (const ref of refsIn(doc)) resolve(doc, ref);
        const errors = await validatorErrors(doc);
        expect(errors, JSON.stringify(doc)).to.deep.equal({ seriousme: null, readme: null });
      }),
      { numRuns: 40 },
    );
    expect(named, 'named objects in the generated documents').to.be.greaterThan(40);
  });
});
