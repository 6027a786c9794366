// The API reference page of the example in headless Chromium (found as spec/support/chromium.ts
// says, never skipped): Swagger UI, served from node_modules, renders the registry's OpenAPI
// document and lists every operation; a person can authorize and try one. Screenshots are left in
// spec-output/: openapi-docs.png (the list) and openapi-docs-tried.png (after trying one).
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createExampleServer } from '../../examples/app.ts';
import { DOCS_POLICY, serveApiDocs } from '../../examples/openapi.ts';
import { launchChromium } from '../support/chromium.ts';
import { listen, send } from '../support/http-client.ts';

const OUTPUT = fileURLToPath(new URL('../../spec-output/', import.meta.url));
const TOKEN = 'docs-demo-token';
const VERBS = ['get', 'put', 'post', 'delete', 'patch'];

describe('examples: the API reference page in headless Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const { server, registry } = createExampleServer({
    log: () => {},
    tokens: { demo: TOKEN, readOnly: 'docs-read-token' },
    registry: { onError: () => {} },
  });
  try {
    serveApiDocs(server, registry, '/api');
  } catch (e) {
    // Once examples/app.ts serves the docs itself, its routes are already there.
    if (!/already defined/.test((e as Error).message)) throw e;
  }
  let url = '';
  const failures: string[] = [];
  /** Every operation of the document, as the page shows it: `POST /api/books`. */
  let operations: string[] = [];

  before(async () => {
    browser = await launchChromium();
    url = await listen(server);
    const paths = (await send(`${url}/api/openapi.json`)).json().paths as Record<string, Record<string, unknown>>;
    operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => VERBS.includes(k))
        .map((verb) => `${verb.toUpperCase()} ${path}`),
    );
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    page = await context.newPage();
    page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) failures.push(`console: ${m.text()}`);
    });
    const response = await page.goto(`${url}/docs`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-security-policy']).to.equal(DOCS_POLICY);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
  });
  after(async () => {
    await page?.screenshot({ path: join(OUTPUT, 'openapi-docs-tried.png'), fullPage: true });
    await context?.close();
    await browser?.close();
    await server.stop();
  });

  it("serves the document and the viewer's files with their types, and nothing else under /docs", async () => {
    const doc = await send(`${url}/api/openapi.json`);
    expect(doc.status).to.equal(200);
    expect(doc.headers['content-type']).to.equal('application/json');
    // The example holds a stream: OpenAPI 3.2.
    expect(doc.json().openapi).to.match(/^3\.2\./);
    const types = await Promise.all(
      ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs.js', 'favicon-32x32.png'].map(
        async (f) => (await send(`${url}/docs/${f}`)).headers['content-type'],
      ),
    );
    expect(types).to.deep.equal([
      'text/css; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
      'image/png',
    ]);
    // Not listed: 404. A slash or backslash encoded in a segment is refused before routing: 400.
    for (const path of [
      '/docs/package.json',
      '/docs/index.html',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/../package.json',
      '/docs/constructor',
      '/docs/__proto__',
    ]) {
      const reply = await send(`${url}${path}`);
      expect(reply.status, path).to.equal(404);
      expect(reply.headers['content-type'], path).to.equal('application/problem+json');
    }
    for (const path of ['/docs/..%2Fpackage.json', '/docs/%2e%2e%2f%2e%2e%2fpackage.json', '/docs/..%5Cpackage.json']) {
      expect((await send(`${url}${path}`)).status, path).to.equal(400);
    }
  });

  it('lists every operation of the example, with its verb and path, under its service', async () => {
    expect(operations, 'one operation in the document per endpoint').to.have.length(
      registry.endpoints.operations.length,
    );
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => {
        const verb = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${verb} ${path}`;
      }),
    );
    // Compared as text: a path may hold percent-encoded characters, which Swagger UI may decode.
    expect(shown.map(decodeURIComponent).sort()).to.deep.equal(operations.map(decodeURIComponent).sort());
    const tags = await page.$$eval('.opblock-tag', (els) => els.map((e) => e.getAttribute('data-tag')));
    expect(tags).to.deep.equal([...new Set(registry.endpoints.operations.map((o) => o.service))]);
    expect(failures).to.deep.equal([]);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'openapi-docs.png'), fullPage: true });
  });

  it('lets a person authorize with a bearer token and try an operation', async () => {
    await page.click('button.authorize');
    await page.fill('.auth-container input[type="text"], .auth-container input[type="password"]', TOKEN);
    await page.click('.auth-container button.authorize');
    await page.click('.auth-btn-wrapper button.btn-done');

    const block = page.locator('.opblock', { has: page.locator('[data-path="/api/getAllUsers"]') });
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/getAllUsers');
    await block.locator('button.execute').click();
    const response = await answer;
    expect(response.status()).to.equal(200);
    expect(response.request().headers().authorization).to.equal(`Bearer ${TOKEN}`);
    await block.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    expect(
      (await block.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(),
    ).to.equal('200');
    expect(
      await block.locator('.live-responses-table tbody .response-col_description').first().textContent(),
    ).to.include('"name"');
    expect(failures).to.deep.equal([]);
  });

  it('lets a person try a routed operation: GET /api/books, the public list', async () => {
    const block = page
      .locator('.opblock', { has: page.locator('[data-path="/api/books"]') })
      .filter({ has: page.locator('.opblock-summary-method', { hasText: /^GET$/ }) });
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/books' && r.request().method() === 'GET',
    );
    await block.locator('button.execute').click();
    const response = await answer;
    expect(response.status()).to.equal(200);
    expect(((await response.json()) as { title: string }[]).map((b) => b.title)).to.include('Programming Pearls');
    await block.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    expect(
      (await block.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(),
    ).to.equal('200');
    expect(failures).to.deep.equal([]);
  });

  it('lets a person try a routed operation with a path parameter: GET /api/books/{id}', async () => {
    const block = page
      .locator('.opblock', { has: page.locator('[data-path="/api/books/{id}"]') })
      .filter({ has: page.locator('.opblock-summary-method', { hasText: /^GET$/ }) });
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    await block.locator('tr[data-param-name="id"] input').fill('3');
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/books/3');
    await block.locator('button.execute').click();
    const response = await answer;
    expect(response.status()).to.equal(200);
    expect(await response.json()).to.include({ id: 3, title: 'Programming Pearls' });
    expect(failures).to.deep.equal([]);
  });
});
