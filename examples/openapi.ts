// The example's API described: `GET {prefix}/openapi.json` is the OpenAPI 3.1 document of the
// registry (made on each request, so services registered later are in it), and `GET /docs` is an
// API reference page rendered by Swagger UI, whose files come from the swagger-ui-dist package in
// node_modules (no CDN). Only the files listed below are served: a name from the URL never reaches
// the file system.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HttpError, openApi, type OpenApiInfo, type Registry } from '../index.ts';
import type { HttpResponse, HttpServer } from '../transports/http/index.ts';

/** The files of `/docs/<name>`: from swagger-ui-dist, and the page's own script. */
const ASSETS: Readonly<Record<string, { readonly type: string; readonly from: 'swagger-ui-dist' | 'here' }>> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', from: 'swagger-ui-dist' },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', from: 'swagger-ui-dist' },
  'favicon-32x32.png': { type: 'image/png', from: 'swagger-ui-dist' },
  'docs.js': { type: 'text/javascript; charset=utf-8', from: 'here' },
};

/** Starts Swagger UI on the document named by the page's `data-openapi` (no inline script). */
const DOCS_JS = `window.addEventListener('load', () => {
  const root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapi,
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;

/**
 * The page's Content-Security-Policy: scripts and styles from this origin (Swagger UI sets inline
 * style attributes, hence 'unsafe-inline' for styles only), calls to this origin only.
 */
export const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function docsPage(documentUrl: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui" data-openapi="${escapeHtml(documentUrl)}"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/docs.js"></script>
</body>
</html>
`;
}

/** The folder of the installed swagger-ui-dist package. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const files = new Map<string, Promise<Uint8Array | string>>();

/** A listed asset's contents, read once (again after a failed read). */
function asset(name: string): Promise<Uint8Array | string> {
  let file = files.get(name);
  if (file === undefined) {
    file =
      ASSETS[name]!.from === 'here'
        ? Promise.resolve(DOCS_JS)
        : readFile(join(swaggerUiDir(), name)).then((b) => new Uint8Array(b));
    file.catch(() => files.delete(name));
    files.set(name, file);
  }
  return file;
}

const plain = (res: HttpResponse, type: string) =>
  res.header('content-type', type).header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache');

/** What the document says about the example. */
export const EXAMPLE_INFO: OpenApiInfo = {
  title: 'lacquer example',
  version: '1.0.0',
  description:
    "Users at /api/{method} (the specification's style) and books as a resource at /api/books, in JSON, MessagePack and CBOR. Reading books is public; every other method needs a bearer token (Authorize).",
};

/**
 * Adds `GET {prefix}/openapi.json` (the registry's OpenAPI document, `prefix` being where its
 * endpoints are mounted), `GET /docs` (the API reference page) and `GET /docs/<file>` (its files)
 * to `server`.
 */
export function serveApiDocs(
  server: HttpServer,
  registry: Registry,
  prefix: string,
  info: OpenApiInfo = EXAMPLE_INFO,
): HttpServer {
  const documentUrl = `${prefix.replace(/\/+$/, '')}/openapi.json`;
  return server
    .get(documentUrl, (_req, res) => {
      plain(res, 'application/json').send(JSON.stringify(openApi(registry.endpoints, { prefix, info })));
    })
    .get('/docs', (_req, res) => {
      plain(res, 'text/html; charset=utf-8')
        .header('content-security-policy', DOCS_POLICY)
        .send(docsPage(documentUrl, info.title));
    })
    .get('/docs/:file', async (req, res) => {
      const name = req.params.file!;
      if (!Object.hasOwn(ASSETS, name)) throw new HttpError(404, `no file /docs/${name}`);
      plain(res, ASSETS[name]!.type).send(await asset(name));
    });
}
