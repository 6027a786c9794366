// The example's stream of the library's activity (BookEventService) over HTTP, through the typed
// client: what it yields, and that however it ends (cleanly, failing, the client leaving, the server
// stopping) its `finally` stops listening to the catalogue's changes.
import { expect } from 'chai';
import { HttpError, Registry } from '../../index.ts';
import { json } from '../../codecs/json/index.ts';
import { demoBearer } from '../../examples/auth.ts';
import { BookApi, BookEventApi } from '../../examples/contracts.ts';
import { BookEventService, BookService, MAX_EVENTS } from '../../examples/services.ts';
import { createClient } from '../../transports/client/index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { listen } from '../support/http-client.ts';

/** The catalogue, counting the listeners its changes have. */
function countedBooks(): { books: BookService; listening: () => number; subscribed: () => number } {
  const books = new BookService();
  const onChange = books.onChange.bind(books);
  let active = 0;
  let total = 0;
  books.onChange = (listener) => {
    active++;
    total++;
    const stop = onChange(listener);
    return () => {
      active--;
      stop();
    };
  };
  return { books, listening: () => active, subscribed: () => total };
}

/** Waits until `check()` holds, up to `ms`. */
async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("examples: the stream of the library's activity", function () {
  this.timeout(15_000);
  let server: HttpServer;
  let counted: ReturnType<typeof countedBooks>;
  let api: ReturnType<typeof createClient<typeof BookEventApi.methods>>;
  let booksApi: ReturnType<typeof createClient<typeof BookApi.methods>>;

  beforeEach(async () => {
    counted = countedBooks();
    // Both services on one registry: /books/events, a static route, wins over GET /books/:id.
    const registry = new Registry({
      onError: () => {},
      security: { bearer: demoBearer({ demo: 'writer', readOnly: 'reader' }) },
    })
      .on(counted.books)
      .on(new BookEventService(counted.books));
    // A short drain: a stream still open at stop() runs until then (see the server-stop case).
    server = new HttpServer({ drainTimeoutMs: 300, onError: () => {} }).mount('/api', registry.endpoints);
    const baseUrl = `${await listen(server)}/api`;
    api = createClient(BookEventApi, { baseUrl, codec: json });
    booksApi = createClient(BookApi, { baseUrl, codec: json, headers: { authorization: 'Bearer writer' } });
  });
  afterEach(() => server.stop());

  it('yields loans round the catalogue, then ends cleanly and stops listening', async () => {
    const texts: string[] = [];
    for await (const event of await api.listBookEvents({ watch: { count: 4 } }))
      texts.push(`${event.bookId} ${event.text}`);
    expect(texts).to.deep.equal([
      '1 borrowed: Structure and Interpretation of Computer Programs',
      '2 borrowed: The C Programming Language',
      '3 borrowed: Programming Pearls',
      '1 returned: Structure and Interpretation of Computer Programs',
    ]);
    await eventually(() => counted.listening() === 0);
  });

  it('yields a change of the catalogue as it happens', async () => {
    const stream = await api.listBookEvents({ watch: { count: 2 } });
    const texts: string[] = [];
    for await (const event of stream) {
      texts.push(event.text);
      if (texts.length === 1)
        await booksApi.createBook({
          book: { id: 7, title: 'Refactoring', author: 'Fowler', isbn: '0201485672', year: 1999 },
        });
    }
    expect(texts).to.deep.equal(['borrowed: Structure and Interpretation of Computer Programs', 'added: Refactoring']);
    await eventually(() => counted.listening() === 0);
  });

  it('ends with the 503 after failAfter events, and stops listening', async () => {
    const seen: number[] = [];
    const error = await (async () => {
      for await (const event of await api.listBookEvents({ watch: { count: 5, failAfter: 2 } }))
        seen.push(event.bookId);
    })().catch((e: unknown) => e);
    expect(seen).to.deep.equal([1, 2]);
    expect(error)
      .to.be.instanceOf(HttpError)
      .and.deep.include({ status: 503, detail: 'the ticker stopped after 2 events, as failAfter=2 asked' });
    await eventually(() => counted.listening() === 0);
  });

  it('stops listening when the client leaves the loop', async () => {
    for await (const _ of await api.listBookEvents({ watch: { count: MAX_EVENTS } })) break;
    await eventually(() => counted.listening() === 0);
  });

  it('stops listening when the server stops under an open stream (at the end of its drain time)', async () => {
    const stream = (await api.listBookEvents({ watch: { count: MAX_EVENTS } }))[Symbol.asyncIterator]();
    await stream.next();
    expect(counted.listening()).to.equal(1);
    await server.stop();
    await eventually(() => counted.listening() === 0);
    await stream.next().catch(() => undefined);
  });

  it('refuses a count above MAX_EVENTS with a 400 before listening at all', async () => {
    const error = await api.listBookEvents({ watch: { count: MAX_EVENTS + 1 } }).catch((e: unknown) => e);
    expect(error)
      .to.be.instanceOf(HttpError)
      .and.deep.include({ status: 400, detail: `count must be at most ${MAX_EVENTS}` });
    expect(counted.subscribed()).to.equal(0);
  });
});
