// A registry reading with `errorOnMissingKeys: 'unless-default'`: its OpenAPI document lists as
// required exactly the body members without a `.default()`, and a request leaving a defaulted
// member out is served, as the typed client's input type allows.
import { expect } from 'chai';
import { meta, method, openApi, Registry, service, t, type Infer, type JsonSchema } from '../../../../index.ts';
import { toFetchHandler } from '../../../../transports/fetch/index.ts';
import { validatorErrors } from './support.ts';

const Search = t.object(
  {
    query: t.string(),
    limit: t.i32().default(10),
    page: t.object({ cursor: t.string(), size: t.u16().default(20) }),
  },
  { name: 'Search' },
);

class Books {
  search(q: Infer<typeof Search>): Infer<typeof Search> {
    return q;
  }
}
meta(Books, service({ search: method([Search], Search) }));

const registry = new Registry({ errorOnMissingKeys: 'unless-default', onError: () => {} }).on(new Books());
const info = { title: 'Books', version: '1' };

describe("openApi and a registry reading with errorOnMissingKeys 'unless-default'", () => {
  const doc = openApi(registry.endpoints, { prefix: '/api', info });
  const schemas = doc.components.schemas as Record<
    string,
    JsonSchema & { required?: string[]; properties: Record<string, JsonSchema & { required?: string[] }> }
  >;

  it('lists only the members without a default as required in a body', () => {
    const input = schemas['Search.input'] ?? schemas.Search!;
    expect(input.required).to.deep.equal(['query', 'page']);
    expect(input.properties.page!.required).to.deep.equal(['cursor']);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(await validatorErrors(doc)).to.deep.equal({ seriousme: null, readme: null });
  });

  it('serves a body that leaves defaulted members out, and refuses one that leaves out another', async () => {
    const handle = toFetchHandler('/api', registry.endpoints);
    const post = (body: unknown) =>
      handle(
        new Request('http://localhost/api/search', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const ok = await post({ query: 'dune', page: { cursor: '' } });
    expect(ok.status).to.equal(200);
    expect(await ok.json()).to.deep.equal({ query: 'dune', limit: 10, page: { cursor: '', size: 20 } });
    const missing = await post({ limit: 5, page: { cursor: '' } });
    expect(missing.status).to.equal(400);
    expect(await missing.json()).to.deep.include({ code: 'missing_key', path: '/query' });
  });
});
