import { expect } from 'chai';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

// What a hostile query costs the fetch handler: a problem of bounded size, found without reading on.
class Finder {
  // The arguments are not used: each spec looks at the refusals only.
  find(): number { return 1; }
}
meta(Finder, service({
  find: method({ tags: t.array(t.string()), color: t.optional(t.enum(['red', 'green'])) }, t.u32(), { route: 'GET /find' }),
}));

describe('transports/fetch: problems for hostile queries', () => {
  const handle = toFetchHandler('/api', new Registry({ onError: () => {} }).on(new Finder()).endpoints);
  const find = async (query: string) => {
    const answer = await handle(new Request(`http://in-process/api/find?${query}`));
    return { status: answer.status, text: await answer.text() };
  };

  it('answers a query of malformed percent-encodings with one syntax_error, at the first', async () => {
    const query = `tags=ok&${Array.from({ length: 1_500 }, () => 'tags=%ZZ').join('&')}`;
    const { status, text } = await find(query);
    const problem = JSON.parse(text) as { errors: { code: string; path: string }[] };
    expect(status).to.equal(400);
    expect(problem.errors.map((e) => [e.code, e.path])).to.deep.equal([['syntax_error', '/tags/1']]);
  });
});
