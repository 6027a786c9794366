// The example page's live section in headless Chromium (see browser.spec.ts for which Chromium):
// GET /api/books/events, a stream of the library's activity, read by the browser's own EventSource
// and by the typed client in each wire format, events shown as they arrive, and the ends of a
// stream (clean, failed mid-way, refused before it begins) shown through both.
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createExampleServer } from '../../examples/app.ts';
import { demoTokens } from '../../examples/auth.ts';
import { launchChromium } from '../support/chromium.ts';
import { listen } from '../support/http-client.ts';

const OUTPUT = fileURLToPath(new URL('../../spec-output/', import.meta.url));

/** The lanes of the live section: the EventSource, then the typed client per codec, with the media type each reads. */
const LANES = [
  { name: 'sse', type: 'text/event-stream' },
  { name: 'json', type: 'application/jsonl' },
  { name: 'cbor', type: 'application/cbor-seq' },
  { name: 'msgpack', type: 'application/msgpack-seq' },
] as const;

/** The seeded catalogue, in id order: the ticker borrows each book, then returns each. */
const TITLES = [
  'Structure and Interpretation of Computer Programs',
  'The C Programming Language',
  'Programming Pearls',
];
const ticks = (count: number) =>
  Array.from({ length: count }, (_, n) => ({
    bookId: (n % 3) + 1,
    text: `${Math.floor(n / 3) % 2 === 0 ? 'borrowed' : 'returned'}: ${TITLES[n % 3]}`,
  }));

interface Shown {
  state: string;
  outcome: string;
  events: { at: string; bookId: number; text: string }[];
}

/** What a lane of the page shows: its state, its last line, and its events' fields. */
function lane(page: Page, name: string): Promise<Shown> {
  return page.$eval(`#lane-${name}`, (root) => ({
    state: (root as HTMLElement).dataset.state ?? '',
    outcome: root.querySelector('output')?.textContent ?? '',
    events: [...root.querySelectorAll('li')].map((li) => ({
      at: li.dataset.at!,
      bookId: Number(li.dataset.bookId),
      text: li.dataset.text!,
    })),
  }));
}

const settle = (page: Page) => page.waitForFunction(() => document.body.dataset.pending === '0');
const withoutTime = (events: Shown['events']) => events.map(({ bookId, text }) => ({ bookId, text }));

describe('examples: the library activity, live in the browser page', function () {
  this.timeout(60_000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const log: string[] = [];
  const { server } = createExampleServer({
    registry: { onError: () => {} },
    tokens: demoTokens({}),
    log: (line) => log.push(line),
  });
  /** The page's requests for the stream: the Accept each sent, and the media type of each answer. */
  const requests: { accept: string; answered?: string; status?: number }[] = [];
  const failures: string[] = [];

  /** Fills the live section's fields, clicks Watch, and waits until every lane has ended. */
  async function watch(count: number, failAfter = 0): Promise<void> {
    requests.length = 0;
    log.length = 0;
    await page.fill('#live-count', String(count));
    await page.fill('#live-fail', String(failAfter));
    await page.click('#live-watch');
    await settle(page);
  }

  before(async () => {
    browser = await launchChromium();
    const url = await listen(server);
    context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      // The 400 of the refused stream is logged by the browser, by fetch and by EventSource.
      if (m.type() === 'error' && !/status of 400|EventSource's response has a MIME type/.test(m.text()))
        failures.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/books/events') requests.push({ accept: r.headers().accept ?? '' });
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname !== '/api/books/events') return;
      const sent = requests.find((q) => q.accept === (r.request().headers().accept ?? '') && q.status === undefined);
      if (sent !== undefined) Object.assign(sent, { answered: r.headers()['content-type'], status: r.status() });
    });
    await page.goto(`${url}/`);
    await settle(page);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server.stop();
  });

  it('the EventSource receives the events in order, sees the end event and closes: one request, no reconnection', async () => {
    await watch(5);
    const shown = await lane(page, 'sse');
    expect(withoutTime(shown.events)).to.deep.equal(ticks(5));
    expect(shown).to.deep.include({ state: 'ended', outcome: 'ended after 5 events' });
    const times = shown.events.map((e) => Date.parse(e.at));
    expect(
      times.every((t, i) => Number.isFinite(t) && (i === 0 || t >= times[i - 1]!)),
      `${shown.events.map((e) => e.at)}`,
    ).to.equal(true);
    // An EventSource left open reconnects about 3 s after the server's end: wait past that.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(
      requests.filter((r) => r.accept === 'text/event-stream'),
      'the EventSource requests',
    ).to.have.length(1);
    expect(
      log.filter((line) => line.startsWith('GET /api/books/events 200 ')),
      'one request per lane, at the server',
    ).to.have.length(4);
  });

  it('the typed client receives the same events in JSON Lines, a CBOR and a MessagePack sequence', async () => {
    for (const { name } of LANES.slice(1)) {
      const shown = await lane(page, name);
      expect(withoutTime(shown.events), name).to.deep.equal(ticks(5));
      expect(shown, name).to.deep.include({ state: 'ended', outcome: 'ended after 5 events' });
    }
    for (const { type } of LANES) {
      const asked = requests.filter((r) => r.accept.startsWith(type));
      expect(asked, type).to.have.length(1);
      expect(asked[0], type).to.deep.include({ status: 200, answered: type });
    }
  });

  it('shows each event as it arrives, before the stream ends', async () => {
    await page.fill('#live-count', '20');
    await page.fill('#live-fail', '0');
    await page.click('#live-watch');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.lane')].every((l) => l.querySelectorAll('li').length >= 2),
    );
    for (const { name } of LANES) {
      const shown = await lane(page, name);
      expect(shown.state, name).to.equal('open');
      expect(shown.events.length, name).to.be.below(20);
      expect(withoutTime(shown.events), name).to.deep.equal(ticks(shown.events.length));
    }
    await page.click('#live-stop');
    await settle(page);
    for (const { name } of LANES) {
      const shown = await lane(page, name);
      expect(shown, name).to.deep.include({ state: 'stopped', outcome: `stopped after ${shown.events.length} events` });
    }
  });

  it("adds a book's update to every stream as it happens", async () => {
    await page.fill('#live-count', '6');
    await page.fill('#live-fail', '0');
    await page.click('#live-watch');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.lane')].every((l) => l.querySelectorAll('li').length >= 1),
    );
    await page.evaluate(() =>
      (globalThis as any).demo.books.json.updateBook({
        id: 2,
        update: { title: 'The C Book', author: 'Kernighan, Ritchie' },
      }),
    );
    await settle(page);
    await page.evaluate(() =>
      (globalThis as any).demo.books.json.updateBook({
        id: 2,
        update: { title: 'The C Programming Language', author: 'Kernighan, Ritchie' },
      }),
    );
    for (const { name } of LANES) {
      const shown = await lane(page, name);
      expect(shown, name).to.deep.include({ state: 'ended', outcome: 'ended after 6 events' });
      const updates = shown.events.filter((e) => e.text.startsWith('updated: '));
      expect(withoutTime(updates), name).to.deep.equal([{ bookId: 2, text: 'updated: The C Book' }]);
      // The loans go on around it, with the book's title as it is when each is told.
      const loans = shown.events
        .filter((e) => !e.text.startsWith('updated: '))
        .map((e) => `${e.bookId} ${e.text.replace('The C Book', TITLES[1]!)}`);
      expect(loans, name).to.deep.equal(ticks(5).map((e) => `${e.bookId} ${e.text}`));
    }
  });

  it('shows a stream that fails mid-way: the events before it, then the problem, through both', async () => {
    await watch(5, 2);
    const problem = '503 Service Unavailable: the ticker stopped after 2 events, as failAfter=2 asked';
    for (const { name } of LANES) {
      const shown = await lane(page, name);
      expect(withoutTime(shown.events), name).to.deep.equal(ticks(2));
      expect(shown, name).to.deep.include({ state: 'failed', outcome: `failed after 2 events: ${problem}` });
    }
    expect(
      requests.filter((r) => r.accept === 'text/event-stream'),
      'no reconnection after the error event',
    ).to.have.length(1);
    mkdirSync(OUTPUT, { recursive: true });
    await (await page.$('section.live'))!.screenshot({ path: join(OUTPUT, 'live.png') });
  });

  it('shows a stream refused before it begins: the typed client has its status, EventSource has none', async () => {
    await watch(20_000);
    for (const { name } of LANES.slice(1)) {
      expect(await lane(page, name), name).to.deep.equal({
        state: 'failed',
        outcome: 'failed after 0 events: 400 Bad Request: count must be at most 10000',
        events: [],
      });
    }
    expect(await lane(page, 'sse')).to.deep.equal({
      state: 'failed',
      outcome: 'failed after 0 events: the connection failed (EventSource tells no status)',
      events: [],
    });
    expect(requests.filter((r) => r.accept === 'text/event-stream')).to.deep.equal([
      { accept: 'text/event-stream', status: 400, answered: 'application/problem+json' },
    ]);
  });

  it('logged no errors besides the expected 400', () => {
    expect(failures).to.deep.equal([]);
  });
});
