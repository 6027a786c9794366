// The example page in a real browser: headless Chromium driven by playwright-core. Which Chromium:
// $LACQUER_CHROMIUM, else a system Chrome/Chromium, else the devDependency @sparticuz/chromium's
// (spec/support/chromium.ts). Required, never skipped: without one this spec fails and says what to install.
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createExampleServer } from '../../examples/app.ts';
import { demoTokens } from '../../examples/auth.ts';
import { servePage } from '../../examples/page/serve.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { launchChromium } from '../support/chromium.ts';
import { listen } from '../support/http-client.ts';

const OUTPUT = fileURLToPath(new URL('../../spec-output/', import.meta.url));
/** The example's servers with the documented default tokens (the page's field holds `demo-token`), logs kept. */
const example = (options: Parameters<typeof createExampleServer>[0] = {}, log: string[] = []) =>
  createExampleServer({
    registry: { onError: () => {} },
    tokens: demoTokens({}),
    log: (line) => log.push(line),
    ...options,
  }).server;

const CODECS = [
  { name: 'json', type: 'application/json', sequence: 'application/jsonl' },
  { name: 'msgpack', type: 'application/msgpack', sequence: 'application/msgpack-seq' },
  { name: 'cbor', type: 'application/cbor', sequence: 'application/cbor-seq' },
] as const;

/** What a page reports about one round of API calls made from inside it (bigints as text). */
interface RoundTrip {
  created: { id: string; idType: string; weight: number };
  fetched: { id: string; idType: string; sameId: boolean; weight: number; f32: boolean };
  listed: boolean;
  notFound: { isHttpError: boolean; status: number; detail: string; title: string };
  invalid: { isHttpError: boolean; status: number; detail: string };
}

/** Calls the API through the page's `demo.users[codec]`: create, get, list, and two 4xx answers. */
function roundTrip(page: Page, codec: string, id: bigint): Promise<RoundTrip> {
  // No named functions inside: the callback is serialized into the page as it is.
  return page.evaluate(
    async ([codec, idText]) => {
      const api = (globalThis as any).demo.users[codec];
      const HttpError = (globalThis as any).demo.HttpError;
      const id = BigInt(idText);
      const created = await api.createUser({ id, name: `api ${codec}`, weight: 0.1 });
      const fetched = await api.getUserById(id);
      const all: { id: bigint }[] = await api.getAllUsers();
      const notFound = await api.getUserById(424242n).catch((e: any) => e);
      const invalid = await api.createUser({ id: 0n, name: ' ', weight: 1 }).catch((e: any) => e);
      return {
        created: { id: String(created.id), idType: typeof created.id, weight: created.weight },
        fetched: {
          id: String(fetched.id),
          idType: typeof fetched.id,
          sameId: fetched.id === id,
          weight: fetched.weight,
          f32: fetched.weight === Math.fround(0.1) && fetched.weight !== 0.1,
        },
        listed: all.some((u) => u.id === id),
        notFound: {
          isHttpError: notFound instanceof HttpError,
          status: notFound.status,
          detail: notFound.detail,
          title: notFound.title,
        },
        invalid: { isHttpError: invalid instanceof HttpError, status: invalid.status, detail: invalid.detail },
      };
    },
    [codec, String(id)] as const,
  );
}

function expectRoundTrip(result: RoundTrip, id: bigint): void {
  expect(result.created).to.deep.equal({ id: String(id), idType: 'bigint', weight: Math.fround(0.1) });
  expect(result.fetched).to.deep.equal({
    id: String(id),
    idType: 'bigint',
    sameId: true,
    weight: Math.fround(0.1),
    f32: true,
  });
  expect(result.listed).to.equal(true);
  expect(result.notFound).to.deep.equal({
    isHttpError: true,
    status: 404,
    detail: 'no user with id 424242',
    title: 'Not Found',
  });
  expect(result.invalid).to.deep.equal({ isHttpError: true, status: 400, detail: 'name must not be empty' });
}

/** What a page reports about one round of calls to the routed book endpoints (BookApi). */
interface BookRoundTrip {
  created: unknown;
  fetched: unknown;
  updated: unknown;
  searched: unknown;
  deleted: unknown;
  gone: { isHttpError: boolean; status: number; detail: string };
  negative: { isHttpError: boolean; status: number; detail: string };
  outOfRange: { name: string; message: string };
}

/** A title with what a query string must encode: `&`, `=`, `#`, `%`, `+`, `/`, `?`, a space and non-ASCII. */
const awkwardTitle = (codec: string) => `Lisp & C = #1, 100% + é/? (${codec})`;

/**
 * Calls the routed endpoints through the page's `demo.books[codec]`, the typed client building each
 * URL from named arguments: POST /books, GET /books/:id, PUT /books/:id, GET /books/search?…,
 * DELETE /books/:id, then a 404, a 400 from the server, and an id the client refuses to send.
 */
function bookRoundTrip(page: Page, codec: string, id: number): Promise<BookRoundTrip> {
  return page.evaluate(
    async ([codec, id, title]) => {
      const api = (globalThis as any).demo.books[codec];
      const HttpError = (globalThis as any).demo.HttpError;
      const created = await api.createBook({ book: { id, title, author: 'Kernighan', isbn: 'x', year: 1978 } });
      const fetched = await api.getBook({ id });
      const updated = await api.updateBook({ id, update: { title: `${title} 2nd`, author: 'Ritchie' } });
      const searched = await api.searchBooks({ search: { query: `${title} 2nd`, limit: 5 } });
      const deleted = await api.deleteBook({ id });
      const [gone, negative] = (
        await Promise.all([
          api.getBook({ id }).catch((e: any) => e),
          api.searchBooks({ search: { query: 'a', limit: -1 } }).catch((e: any) => e),
        ])
      ).map((e: any) => ({ isHttpError: e instanceof HttpError, status: e.status, detail: e.detail }));
      const outOfRange = await api.getBook({ id: 2 ** 31 }).catch((e: any) => e);
      return {
        created,
        fetched,
        updated,
        searched,
        deleted,
        gone: gone!,
        negative: negative!,
        outOfRange: { name: outOfRange.name, message: outOfRange.message },
      };
    },
    [codec, id, awkwardTitle(codec)] as const,
  );
}

function expectBookRoundTrip(result: BookRoundTrip, codec: string, id: number): void {
  const title = awkwardTitle(codec);
  const book = { id, title, author: 'Kernighan', isbn: 'x', year: 1978 };
  const updated = { ...book, title: `${title} 2nd`, author: 'Ritchie' };
  expect(result.created).to.deep.equal(book);
  expect(result.fetched).to.deep.equal(book);
  expect(result.updated).to.deep.equal(updated);
  expect(result.searched).to.deep.equal({ books: [updated], total_count: 1, has_more: false });
  expect(result.deleted).to.equal(undefined);
  expect(result.gone).to.deep.equal({ isHttpError: true, status: 404, detail: `no book with id ${id}` });
  expect(result.negative).to.deep.equal({
    isHttpError: true,
    status: 400,
    detail: 'limit and offset must not be negative',
  });
  expect(result.outOfRange).to.deep.equal({
    name: 'WriteError',
    message: '2147483648 is outside i32 (-2147483648..2147483647) at /id',
  });
}

/** Waits until the page has no action under way. */
const settle = (page: Page) => page.waitForFunction(() => document.body.dataset.pending === '0');
const text = async (page: Page, selector: string) => (await page.textContent(selector))?.trim() ?? '';

describe('examples: the browser page in headless Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  const log: string[] = [];
  const server = example({}, log);
  let url = '';

  before(async () => {
    browser = await launchChromium();
    url = await listen(server);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  describe("served under a Content-Security-Policy without 'unsafe-eval'", () => {
    let context: BrowserContext;
    let page: Page;
    const failures: string[] = [];
    const exchanges: {
      verb: string;
      path: string;
      search: string;
      sent: string | null;
      answered: string | null;
      status: number;
      auth: string | null;
      location: string | null;
    }[] = [];

    before(async () => {
      context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      page = await context.newPage();
      page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
      // A 4xx is logged by the browser as a failed resource; anything else on the console is a fault.
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) failures.push(`console: ${m.text()}`);
      });
      page.on('response', (r) => {
        const { pathname: path, search } = new URL(r.url());
        if (path.startsWith('/api/')) {
          const sent = r.request().headers();
          exchanges.push({
            verb: r.request().method(),
            path,
            search,
            sent: sent['content-type'] ?? null,
            answered: r.headers()['content-type'] ?? null,
            status: r.status(),
            auth: sent.authorization ?? null,
            location: r.headers().location ?? null,
          });
        }
      });
      const response = await page.goto(`${url}/`);
      const policy = response?.headers()['content-security-policy'] ?? '';
      expect(policy).to.include("script-src 'self'").and.not.include('unsafe-eval');
      await settle(page);
    });
    after(async () => {
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, 'browser.png'), fullPage: true });
      await context.close();
    });

    it('loads, lists the seeded users and books, and runs on the closures because new Function is refused', async () => {
      expect(await page.locator('#users tbody tr').count()).to.be.at.least(2);
      expect(await text(page, '#users tbody tr[data-id="1"]')).to.match(/^1\s*bigint\s*Ada\s*61\.5$/);
      expect(await page.locator('#books tbody tr td:first-child').allTextContents()).to.deep.equal(['1', '2', '3']);
      expect(await page.locator('#books tbody tr[data-id="3"] td').allTextContents()).to.deep.equal([
        '3',
        'Programming Pearls',
        'Bentley',
        '1986',
      ]);
      // The page's own probe (page.evaluate itself would be exempt from the CSP, as DevTools is).
      expect(await page.evaluate(() => (globalThis as any).demo.codegen)).to.equal(false);
      expect(await text(page, '#codegen')).to.include('blocked');
    });

    CODECS.forEach(({ name, type, sequence }, i) => {
      const id = 2n ** 64n - 1n - BigInt(i); // far above 2^53: a double would round it
      describe(`${name}`, () => {
        before(async () => {
          exchanges.length = 0;
          await page.check(`input[name=codec][value=${name}]`);
          await settle(page);
        });

        it(`creates, gets and lists through the form, keeping u64 ${id} and f32 0.1`, async () => {
          await page.fill('#create-id', String(id));
          await page.fill('#create-name', `Grace ${name}`);
          await page.fill('#create-weight', '0.1');
          await page.click('#create button');
          await settle(page);
          const shown = `{ id: ${id}n, name: "Grace ${name}", weight: 0.1 }`;
          expect(await text(page, '#created')).to.equal(`created ${shown}`);
          await page.fill('#find-id', String(id));
          await page.click('#find button');
          await settle(page);
          expect(await text(page, '#found')).to.equal(shown);
          const cells = await page.locator(`#users tbody tr[data-id="${id}"] td`).allTextContents();
          expect(cells).to.deep.equal([String(id), 'bigint', `Grace ${name}`, '0.1']);
        });

        it(`speaks ${type} on the wire, both ways, with the token field's bearer token`, () => {
          const create = exchanges.find((e) => e.path === '/api/createUser');
          expect(create).to.deep.include({ sent: type, answered: type, status: 200, auth: 'Bearer demo-token' });
          const list = exchanges.filter((e) => e.path === '/api/getAllUsers');
          expect(list.length).to.be.at.least(1);
          for (const e of list) expect(e.answered).to.equal(type);
        });

        it('searches, loads and saves a book through the forms', async () => {
          await page.fill('#search-query', 'pearls');
          await page.fill('#search-limit', '10');
          await page.click('#search button');
          await settle(page);
          expect(await text(page, '#searched')).to.equal('1 of 1: Programming Pearls');
          await page.fill('#search-query', 'programming');
          await page.fill('#search-limit', '1');
          await page.click('#search button');
          await settle(page);
          expect(await text(page, '#searched')).to.equal('1 of 2, more left: The C Programming Language');

          await page.fill('#edit-id', '3');
          await page.fill('#edit-title', '');
          await page.click('#edit-load');
          await settle(page);
          expect(await page.inputValue('#edit-title')).to.equal('Programming Pearls');
          expect(await text(page, '#edited')).to.equal('loaded 3: Programming Pearls (Bentley, 1986)');
          await page.fill('#edit-title', `Programming Pearls, ${name}`);
          await page.click('#edit button[type=submit]');
          await settle(page);
          expect(await text(page, '#edited')).to.equal(`updated 3: Programming Pearls, ${name} (Bentley, 1986)`);
          const cells = await page.locator('#books tbody tr[data-id="3"] td').allTextContents();
          expect(cells).to.deep.equal(['3', `Programming Pearls, ${name}`, 'Bentley', '1986']);
          // Back as it was, for the next wire format's search.
          await page.fill('#edit-title', 'Programming Pearls');
          await page.click('#edit button[type=submit]');
          await settle(page);
          expect(await text(page, '#edited')).to.equal('updated 3: Programming Pearls (Bentley, 1986)');
        });

        it(`imports books from a JSON Lines file, sent as a ${sequence} request stream`, async () => {
          const base = 5000 + 10 * i;
          const books = [0, 1, 2].map((k) => ({
            id: base + k,
            title: `Imported ${name} ${k}`,
            author: 'Knuth',
            isbn: '0201896834',
            year: 1997,
          }));
          const file = [...books, { id: 3, title: 'Taken', author: 'Nobody', isbn: '0', year: 1 }]
            .map((b) => JSON.stringify(b))
            .join('\n');
          await page.setInputFiles('#import-file', {
            name: 'books.jsonl',
            mimeType: 'application/jsonl',
            buffer: Buffer.from(`${file}\n`),
          });
          await page.click('#import button[type=submit]');
          await settle(page);
          expect(await text(page, '#imported')).to.equal('imported 3, skipped 3 (taken)');
          for (const book of books) {
            expect(await page.locator(`#books tbody tr[data-id="${book.id}"] td`).allTextContents()).to.deep.equal([
              String(book.id),
              book.title,
              'Knuth',
              '1997',
            ]);
          }
          const sent = exchanges.find((e) => e.verb === 'POST' && e.path === '/api/books/import');
          expect(sent).to.deep.include({ sent: sequence, answered: type, status: 200, auth: 'Bearer demo-token' });
          // The catalogue as it was, for the specs after this one.
          await page.evaluate(
            async (ids) => {
              const { demo } = globalThis as unknown as {
                demo: { books: { json: { deleteBook(args: { id: number }): Promise<void> } } };
              };
              for (const id of ids) await demo.books.json.deleteBook({ id });
            },
            books.map((b) => b.id),
          );
        });

        it(`calls the routed book endpoints in ${type}: the id in the path, the search in the query, the update as the body`, () => {
          const books = exchanges.filter((e) => e.path.startsWith('/api/books'));
          const seen = (verb: string, path: string, search = '') =>
            books.filter((e) => e.verb === verb && e.path === path && e.search === search);
          const list = seen('GET', '/api/books');
          expect(list.length, 'the list, reloaded after a save').to.be.at.least(1);
          expect(list[0]).to.deep.include({ sent: null, answered: type, status: 200 });
          expect(seen('GET', '/api/books/search', '?query=pearls&limit=10&offset=0')).to.have.length(1);
          expect(seen('GET', '/api/books/search', '?query=programming&limit=1&offset=0')[0]).to.deep.include({
            sent: null,
            answered: type,
            status: 200,
          });
          expect(seen('GET', '/api/books/3')[0]).to.deep.include({ sent: null, answered: type, status: 200 });
          const puts = seen('PUT', '/api/books/3');
          expect(puts).to.have.length(2);
          for (const e of puts)
            expect(e).to.deep.include({ sent: type, answered: type, status: 200, auth: 'Bearer demo-token' });
          expect(
            books.every((e) => e.status >= 200 && e.status < 300),
            'every call on /api/books succeeded',
          ).to.equal(true);
        });

        it(`round-trips the routed book endpoints through demo.books, with a title the query string must encode`, async () => {
          expectBookRoundTrip(await bookRoundTrip(page, name, 1000 + i), name, 1000 + i);
          const created = exchanges.find((e) => e.verb === 'POST' && e.path === '/api/books');
          expect(created).to.deep.include({
            sent: type,
            answered: type,
            status: 201,
            location: `/api/books/${1000 + i}`,
          });
          expect(exchanges.find((e) => e.verb === 'DELETE' && e.path === `/api/books/${1000 + i}`)).to.deep.include({
            sent: null,
            status: 204,
          });
          const search = exchanges.find((e) => e.path === '/api/books/search' && e.search.includes('2nd'))!;
          expect(new URLSearchParams(search.search).get('query')).to.equal(`${awkwardTitle(name)} 2nd`);
        });

        it('shows a 404 as an HttpError with the problem details', async () => {
          await page.fill('#find-id', '424242');
          await page.click('#find button');
          await settle(page);
          expect(await text(page, '#error')).to.equal('HttpError 404 Not Found: no user with id 424242');
        });

        it('round-trips through demo.users with the same bigint, float32 and HttpErrors', async () => {
          const apiId = 2n ** 63n + BigInt(i);
          expectRoundTrip(await roundTrip(page, name, apiId), apiId);
        });
      });
    });

    describe('the token field, read at each call', () => {
      const reloadWith = async (token: string) => {
        exchanges.length = 0;
        await page.fill('#token', token);
        await page.click('#reload');
        await settle(page);
      };
      const rows = () => page.locator('#users tbody tr').count();
      before(() => page.check('input[name=codec][value=json]'));
      after(() => reloadWith('demo-token'));

      it('shows the 401 of a wrong token, its challenge in the exchanges, and no users', async () => {
        await reloadWith('wrong-token');
        expect(await text(page, '#error')).to.equal(
          'HttpError 401 Unauthorized: the credentials were refused (check the token field)',
        );
        expect(await rows()).to.equal(0);
        expect(exchanges.at(-1)).to.deep.include({ path: '/api/getAllUsers', status: 401, auth: 'Bearer wrong-token' });
        expect(await text(page, '#log li:first-child')).to.include(
          'www-authenticate: Bearer realm="api", error="invalid_token"',
        );
      });

      it('sends no Authorization when the field is empty, and shows that credentials are needed', async () => {
        await reloadWith('');
        expect(await text(page, '#error')).to.equal(
          'HttpError 401 Unauthorized: this call needs credentials (check the token field)',
        );
        expect(exchanges.at(-1)).to.deep.include({ path: '/api/getAllUsers', status: 401, auth: null });
      });

      it('lists the books without a token: reading them is public', async () => {
        await page.click('#reload-books');
        await settle(page);
        expect(exchanges.at(-1)).to.deep.include({ verb: 'GET', path: '/api/books', status: 200, auth: null });
        expect(await page.locator('#books tbody tr').count()).to.equal(3);
      });

      it('lists the users with the read-only token, and shows the 403 of a create', async () => {
        await reloadWith('read-only-token');
        expect(await rows()).to.be.at.least(2);
        await page.fill('#create-id', '0');
        await page.click('#create button');
        await settle(page);
        expect(await text(page, '#error')).to.equal(
          'HttpError 403 Forbidden: the read-only token may read but not write',
        );
        expect(exchanges.find((e) => e.path === '/api/createUser')).to.deep.include({
          status: 403,
          auth: 'Bearer read-only-token',
        });
        await page.fill('#edit-id', '3');
        await page.click('#edit button[type=submit]');
        await settle(page);
        expect(await text(page, '#error')).to.equal(
          'HttpError 403 Forbidden: the read-only token may read but not write',
        );
        expect(exchanges.find((e) => e.verb === 'PUT')).to.deep.include({
          path: '/api/books/3',
          status: 403,
          auth: 'Bearer read-only-token',
        });
      });

      it('gets the data again once the demo token is typed back, and the server logs each call', async () => {
        log.length = 0;
        await reloadWith('demo-token');
        expect(await text(page, '#users tbody tr[data-id="1"]')).to.match(/^1\s*bigint\s*Ada\s*61\.5$/);
        expect(log.length).to.be.at.least(1);
        // 304 when the browser revalidates the answer its cache holds from the demo token's first call.
        for (const line of log)
          expect(line).to.match(/^GET \/api\/getAllUsers (200|304) \d+\.\d ms req=\S+ caller=demo$/);
      });
    });

    describe('afterwards', () => {
      it('logged no errors besides the expected 4xx answers', () => {
        expect(failures).to.deep.equal([]);
      });
    });
  });

  describe('with code generation allowed (CSP bypassed): the generated fast path gives the same', () => {
    let context: BrowserContext;
    let page: Page;
    before(async () => {
      context = await browser.newContext({ bypassCSP: true });
      page = await context.newPage();
      await page.goto(`${url}/`);
      await settle(page);
    });
    after(() => context.close());

    it('uses generated code', async () => {
      expect(await page.evaluate(() => (globalThis as any).demo.codegen)).to.equal(true);
    });
    CODECS.forEach(({ name }, i) => {
      it(`${name}: the same round trips`, async () => {
        const id = 2n ** 62n * 3n + BigInt(i);
        expectRoundTrip(await roundTrip(page, name, id), id);
        expectBookRoundTrip(await bookRoundTrip(page, name, 2000 + i), name, 2000 + i);
      });
    });
  });

  describe('cross-origin: the page on one port, the API on another', () => {
    // The page's own server allows any loopback port in connect-src, so that CORS alone decides.
    const pageServer = servePage(new HttpServer(), { connectSrc: ['http://127.0.0.1:*'] });
    let pageUrl = '';
    let open: HttpServer;
    let closed: HttpServer;
    let context: BrowserContext;
    before(async () => {
      pageUrl = await listen(pageServer);
      open = example({ server: { cors: { origins: [pageUrl] } } });
      closed = example();
      await Promise.all([listen(open), listen(closed)]);
      context = await browser.newContext();
    });
    after(async () => {
      await context.close();
      await Promise.all([pageServer.stop(), open.stop(), closed.stop()]);
    });

    it("succeeds when the API server allows the page's origin (CORS on), preflights included, on routed endpoints too", async () => {
      const page = await context.newPage();
      await page.goto(`${pageUrl}/?api=${encodeURIComponent(`${open.url}/api`)}`);
      await settle(page);
      expect(await page.locator('#users tbody tr').count()).to.be.at.least(2);
      for (const [i, { name }] of CODECS.entries()) {
        const id = 2n ** 60n * 7n + BigInt(i);
        expectRoundTrip(await roundTrip(page, name, id), id);
        expectBookRoundTrip(await bookRoundTrip(page, name, 3000 + i), name, 3000 + i);
      }
      expect(await text(page, '#status')).to.include(`${open.url}/api`);
    });

    it('is refused when the API server has no CORS option', async () => {
      const page = await context.newPage();
      await page.goto(`${pageUrl}/?api=${encodeURIComponent(`${closed.url}/api`)}`);
      await settle(page);
      expect(await page.locator('#users tbody tr').count()).to.equal(0);
      expect(await text(page, '#error')).to.equal('TypeError: Failed to fetch');
      const refused = await page.evaluate(() =>
        Promise.all(
          ['json', 'cbor'].map((codec) =>
            (globalThis as any).demo.users[codec].createUser({ id: 0n, name: 'x', weight: 1 }).then(
              () => 'sent',
              (e: Error) => e.name,
            ),
          ),
        ),
      );
      expect(refused).to.deep.equal(['TypeError', 'TypeError']);
    });
  });
});
