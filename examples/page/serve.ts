// Serves the browser page: bundles examples/page/main.ts with esbuild on first use (so `npm start`
// needs no build step) and answers `/`, `/app.js` and `/app.css` under a strict CSP.
import { build, type Metafile } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HttpResponse, HttpServer } from '../../transports/http/index.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The page's files: HTML, the bundled script, CSS, and esbuild's metafile for the bundle. */
export interface PageBundle {
  readonly html: string;
  readonly js: string;
  readonly css: string;
  readonly metafile: Metafile;
}

let bundle: Promise<PageBundle> | undefined;

async function bundlePage(): Promise<PageBundle> {
  const [html, css, result] = await Promise.all([
    readFile(here('./index.html'), 'utf8'),
    readFile(here('./style.css'), 'utf8'),
    build({
      entryPoints: [here('./main.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      legalComments: 'none',
      logLevel: 'silent',
    }),
  ]);
  return { html, css, js: result.outputFiles[0]!.text, metafile: result.metafile };
}

/** The page, bundled once per process (again after a failed attempt). */
export function buildPage(): Promise<PageBundle> {
  bundle ??= bundlePage().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

/** Options of {@link servePage}. */
export interface PageOptions {
  /**
   * More sources the page may call besides its own origin (the CSP's `connect-src`), for a page
   * pointed at another server with `?api=http://host:port/api`. Default none.
   */
  connectSrc?: readonly string[];
}

/**
 * The page's Content-Security-Policy: scripts from this origin only and no 'unsafe-eval', so
 * lacquer's codecs cannot use `new Function` and run their closures.
 */
export function pagePolicy(connectSrc: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Adds the page's routes to `server`: `/` (under {@link pagePolicy}), `/app.js`, `/app.css`. */
export function servePage(server: HttpServer, options: PageOptions = {}): HttpServer {
  const policy = pagePolicy(options.connectSrc);
  const file = (type: string, pick: (page: PageBundle) => string) => async (_req: unknown, res: HttpResponse) => {
    const page = await buildPage();
    res.header('content-type', type).header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache');
    if (type.startsWith('text/html')) res.header('content-security-policy', policy);
    res.send(pick(page));
  };
  return server
    .get(
      '/',
      file('text/html; charset=utf-8', (p) => p.html),
    )
    .get(
      '/app.js',
      file('text/javascript; charset=utf-8', (p) => p.js),
    )
    .get(
      '/app.css',
      file('text/css; charset=utf-8', (p) => p.css),
    );
}
