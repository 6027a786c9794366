// What a browser downloads: the client bundled with esbuild holds nothing from node:*, and its
// minified, gzipped size stays small (docs/client-and-fetch.md states it).
import { expect } from 'chai';
import { build, type Metafile } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildPage } from '../../../examples/page/serve.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Bundles `source` (imports relative to the repository root) for browsers, minified. */
async function bundle(source: string): Promise<{ gzipped: number; minified: number; metafile: Metafile }> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength, metafile: result.metafile };
}

/** Every module esbuild reached and every import any of them makes, tree-shaken or not. */
function modulesOf(metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([path, input]) => [path, ...input.imports.map((i) => i.path)]);
}

/** The modules that put code into the bundle, relative to the repository. */
function contentsOf(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path.replace(/^.*?(examples|core|codecs|transports)\//, '$1/')),
  );
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

describe('transports/client in a browser bundle', () => {
  const cases: [string, string, number][] = [
    [
      'the client with the JSON codec',
      "export { createClient } from './transports/client/index.ts'; export { json } from './codecs/json/index.ts';",
      35,
    ],
    [
      'the client with MessagePack (JSON comes along as the fallback)',
      "export { createClient } from './transports/client/index.ts'; export { msgpack } from './codecs/msgpack/index.ts';",
      48,
    ],
    [
      'the client with CBOR (JSON comes along as the fallback)',
      "export { createClient } from './transports/client/index.ts'; export { cbor } from './codecs/cbor/index.ts';",
      48,
    ],
  ];
  for (const [label, source, budgetKb] of cases) {
    it(`${label}: nothing from node:*, under ${budgetKb} KB minified and gzipped`, async function () {
      const { gzipped, minified, metafile } = await bundle(source);
      const modules = modulesOf(metafile);
      expect(modules.filter((m) => m.startsWith('node:') || m.includes('transports/http/'))).to.deep.equal([]);
      expect(gzipped / 1024).to.be.below(budgetKb);
      this.test!.title += ` (${kb(minified)} KB minified, ${kb(gzipped)} KB gzipped)`;
    });
  }

  it('is stated in the docs by the budgets held here: under 35 KB with JSON, under 48 KB with MessagePack or CBOR', () => {
    const budgets = [...new Set(cases.map(([, , budget]) => budget))];
    const page = readFileSync(new URL('../../../docs/client-and-fetch.md', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const budget of budgets)
      expect(page, `docs/client-and-fetch.md: under ${budget} KB`).to.contain(`**under ${budget} KB**`);
    expect(readme).to.contain(`under ${budgets[0]} KB minified and gzipped with JSON`);
    // No other figure for the client's size.
    expect(`${page}\n${readme}`.match(/\b\d+(\.\d+)? KB\*{0,2} (minified|\(KiB)/g)).to.deep.equal([
      `${budgets[0]} KB** (KiB`,
      `${budgets[0]} KB minified`,
    ]);
  });

  it('the fetch handler bundles without node:* too (for Workers, Deno, Bun)', async function () {
    const { gzipped, metafile } = await bundle("export { toFetchHandler } from './transports/fetch/index.ts';");
    expect(modulesOf(metafile).filter((m) => m.startsWith('node:'))).to.deep.equal([]);
    this.test!.title += ` (${kb(gzipped)} KB gzipped, JSON only)`;
  });

  it('the example page bundles the client, the three codecs and the contract, and no server code', async () => {
    const { metafile } = await buildPage();
    expect(modulesOf(metafile).filter((m) => m.startsWith('node:'))).to.deep.equal([]);
    const modules = contentsOf(metafile);
    expect(modules).to.include.members([
      'transports/client/create-client.ts',
      'codecs/cbor/index.ts',
      'codecs/msgpack/index.ts',
      'examples/contracts.ts',
    ]);
    expect(
      modules.filter((m) =>
        /examples\/(services|app|server)\.ts|transports\/(http|fetch)\/|transports\/rest\/(registry|endpoint)\.ts/.test(
          m,
        ),
      ),
    ).to.deep.equal([]);
  });
});
