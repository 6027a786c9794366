import { expect } from 'chai';
import { JSONRPC, MAX_READ_ERRORS, Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

// What a hostile request costs the fetch handler: a problem of bounded size, found without reading on.
class Finder {
  // The arguments are not used: each spec looks at the refusals only.
  find(): number {
    return 1;
  }
}
meta(
  Finder,
  service({
    find: method({ tags: t.array(t.string()), color: t.optional(t.enum(['red', 'green'])) }, t.u32(), {
      route: 'GET /find',
    }),
  }),
);

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

  describe('texts of the client’s repeated in a problem', () => {
    const huge = 'k'.repeat(1_000_000);
    const cut = `${'k'.repeat(100)}…`;

    it('cut a huge unknown query key to 100 characters, in the detail, the path and the errors', async () => {
      const { status, text } = await find(`${huge}=1&tags=a`);
      expect(status).to.equal(400);
      expect(text.length).to.be.below(2_000);
      const problem = JSON.parse(text) as { detail: string; path: string; errors: { path: string; message: string }[] };
      expect([problem.detail, problem.path]).to.deep.equal([`unknown key '${cut}' at the root`, `/${cut}`]);
      expect(problem.errors).to.have.length(1);
      expect(problem.errors[0]!.message).to.equal(problem.detail);
    });

    it('list at most MAX_READ_ERRORS unknown keys, each cut', async () => {
      const query = Array.from({ length: 1_000 }, (_, i) => `${i}${'z'.repeat(1_000)}=1`).join('&');
      const { status, text } = await find(query);
      expect(status).to.equal(400);
      const problem = JSON.parse(text) as { errors: { code: string; path: string }[] };
      expect(problem.errors).to.have.length(MAX_READ_ERRORS);
      expect(problem.errors.every((e) => e.code === 'unknown_key' && e.path.length === 102)).to.equal(true);
      expect(text.length).to.be.below(MAX_READ_ERRORS * 400);
    });

    it('cut a huge enum value, a huge path and a JSON-RPC method that does not exist', async () => {
      expect((await find(`color=${huge}`)).text.length).to.be.below(1_000);
      const missing = await handle(new Request(`http://in-process/api/${huge}`));
      expect([missing.status, (await missing.text()).length < 1_000]).to.deep.equal([404, true]);
      const rpc = toFetchHandler('/rpc', new Registry({}, JSONRPC).on(new Finder()).endpoints);
      const answer = await rpc(
        new Request('http://in-process/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: huge }),
        }),
      );
      const body = await answer.text();
      expect(body.length).to.be.below(1_000);
      expect(body).to.include(cut);
    });
  });
});
