// Swagger UI (from swagger-ui-dist, in headless Chromium) on a document with routes and named
// parameters: a person fills a path parameter, query parameters spread from an object and an
// array, and the request the page sends is the one the server reads.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { serveApiDocs } from '../../../../examples/openapi.ts';
import { HttpServer } from '../../../../transports/http/index.ts';
import { launchChromium } from '../../../support/chromium.ts';
import { listen } from '../../../support/http-client.ts';
import { notesRegistry } from './fixtures.ts';

describe('openApi: Swagger UI sends what the parameters say', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;
  const server = new HttpServer();
  const registry = notesRegistry();
  server.mount('/api', registry.endpoints);
  serveApiDocs(server, registry, '/api', { title: 'Notes', version: '1' });
  const failures: string[] = [];

  before(async () => {
    browser = await launchChromium();
    const url = await listen(server);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
    await page.goto(`${url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  /** Opens an operation, fills its parameters, executes it; the request sent and the status answered. */
  async function tryOut(verb: string, path: string, fill: (block: ReturnType<Page['locator']>) => Promise<void>) {
    const block = page.locator(`.opblock-${verb}`, { has: page.locator(`[data-path="${path}"]`) });
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    await fill(block);
    const answer = page.waitForResponse(
      (r) => r.request().method() === verb.toUpperCase() && new URL(r.url()).pathname.startsWith('/api/'),
    );
    await block.locator('button.execute').click();
    const response = await answer;
    const url = new URL(response.url());
    return { target: decodeURIComponent(url.pathname + url.search), status: response.status() };
  }

  it('fills a path parameter into the route', async () => {
    const sent = await tryOut('get', '/api/notes/{id}', async (block) => {
      await block.locator('tr[data-param-name="id"] input').fill('5');
    });
    expect(sent).to.deep.equal({ target: '/api/notes/5', status: 200 });
    expect(failures).to.deep.equal([]);
  });

  it('sends an object spread over the query as its members, and an array as a repeated key', async () => {
    const sent = await tryOut('get', '/api/notes', async (block) => {
      await block.locator('tr[data-param-name="query"] input').fill('milk');
      await block.locator('tr[data-param-name="limit"] input').fill('5');
      const tag = block.locator('tr[data-param-name="tag"]');
      for (const text of ['a', 'b']) {
        await tag.locator('button.json-schema-form-item-add').click();
        await tag.locator('input').last().fill(text);
      }
    });
    expect(sent).to.deep.equal({ target: '/api/notes?query=milk&limit=5&tag=a&tag=b', status: 200 });
    expect(failures).to.deep.equal([]);
  });

  it("offers an enum's values, and sends a 64-bit integer as its digits", async () => {
    const sent = await tryOut('get', '/api/findNotes', async (block) => {
      await block.locator('tr[data-param-name="kind"] select').selectOption('3');
      await block.locator('tr[data-param-name="since"] input').fill('-9223372036854775808');
      const ids = block.locator('tr[data-param-name="ids"]');
      await ids.locator('button.json-schema-form-item-add').click();
      await ids.locator('input').last().fill('18446744073709551615');
    });
    expect(sent).to.deep.equal({
      target: '/api/findNotes?kind=3&since=-9223372036854775808&ids=18446744073709551615',
      status: 200,
    });
    expect(failures).to.deep.equal([]);
  });
});
