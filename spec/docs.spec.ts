// The documentation's examples are code that runs: every ```ts runnable block of README.md,
// docs/**/*.md and bench/README.md is executed against the sources, and each `//=> text` comment
// must appear as a line of what the block printed, in the order of the comments. And code that
// type-checks: tsc checks every block with the project's strict settings (tsx runs them unchecked).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Entry points of the package, resolved to the sources so the examples run without a build. */
const ENTRY_POINTS: Record<string, string> = {
  lacquerjs: 'index.ts',
  'lacquerjs/json': 'codecs/json/index.ts',
  'lacquerjs/msgpack': 'codecs/msgpack/index.ts',
  'lacquerjs/cbor': 'codecs/cbor/index.ts',
  'lacquerjs/http': 'transports/http/index.ts',
  'lacquerjs/fetch': 'transports/fetch/index.ts',
  'lacquerjs/client': 'transports/client/index.ts',
  'lacquerjs/otel': 'transports/otel/index.ts',
};

/** Any module specifier naming the package, known or not (`'lacquer/json'` is caught too). */
const PACKAGE_IMPORT = /\b(from|import)(\s*\(?\s*)(['"])(lacquer[^'"]*)\3/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return markdownFiles(path);
      return e.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

interface Block {
  /** 1-based, counting the runnable blocks of its file. */
  readonly index: number;
  /** The line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

function runnableBlocks(file: string): Block[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^```ts runnable\n([\s\S]*?)^```/gm)].map((m, i) => ({
    index: i + 1,
    line: text.slice(0, m.index).split('\n').length,
    code: m[1]!,
  }));
}

/** The block with the package's imports pointing at the source entry files. */
function withSourceImports(code: string): string {
  return code.replace(PACKAGE_IMPORT, (_whole, keyword: string, gap: string, quote: string, name: string) => {
    const file = ENTRY_POINTS[name];
    if (file === undefined)
      throw new Error(`imports unknown entry point '${name}'; known: ${Object.keys(ENTRY_POINTS).join(', ')}`);
    return `${keyword}${gap}${quote}${join(root, file)}${quote}`;
  });
}

const files = [
  'README.md',
  ...markdownFiles('docs'),
  ...(existsSync(join(root, 'bench/README.md')) ? ['bench/README.md'] : []),
];

describe('docs', () => {
  it('finds runnable examples in the README and in docs/', () => {
    expect(runnableBlocks('README.md')).to.have.length.greaterThan(0);
    expect(files.filter((f) => f.startsWith('docs/')).flatMap(runnableBlocks)).to.have.length.greaterThan(5);
  });

  it('the runnable examples type-check with the strict settings', function () {
    this.timeout(60_000);
    // Inside the repository, so that the examples' imports of other packages resolve as they do for the specs.
    const dir = mkdtempSync(join(root, '.docs-typecheck-'));
    try {
      const names: string[] = [];
      for (const file of files) {
        for (const block of runnableBlocks(file)) {
          const name = `${file.replace(/[^\w]+/g, '-')}-${block.index}-line-${block.line}.ts`;
          writeFileSync(join(dir, name), withSourceImports(block.code));
          names.push(name);
        }
      }
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../tsconfig.json',
          compilerOptions: { noEmit: true, rewriteRelativeImportExtensions: false },
          include: names,
        }),
      );
      const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
        encoding: 'utf8',
        cwd: root,
        timeout: 50_000,
      });
      expect(tsc.stdout + tsc.stderr, 'tsc on the examples (file names: the page, the block, its line)').to.equal('');
      expect(tsc.status).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const file of files) {
    const blocks = runnableBlocks(file);
    if (blocks.length === 0) continue;
    describe(file, () => {
      for (const block of blocks) {
        const firstLine =
          block.code
            .split('\n')
            .find((l) => !l.startsWith('import') && l.trim() !== '')
            ?.trim() ?? '';
        it(`example ${block.index} (line ${block.line}) runs and prints what it says: ${firstLine.slice(0, 50)}`, function () {
          this.timeout(60_000);
          const source = withSourceImports(block.code);
          // Inside the repository, so that an example's imports of other packages (an OpenTelemetry SDK) resolve.
          const dir = mkdtempSync(join(root, '.docs-run-'));
          try {
            const script = join(dir, `${file.replace(/[^\w]+/g, '-')}-${block.index}.ts`);
            writeFileSync(script, source);
            const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
              encoding: 'utf8',
              cwd: root,
              timeout: 50_000,
            });
            expect(run.status, `${file}:${block.line}\n${run.stderr}`).to.equal(0);
            const printed = run.stdout.split('\n').map((l) => l.trim());
            let at = 0;
            for (const [, expected] of block.code.matchAll(/\/\/=> (.*)$/gm)) {
              const want = expected!.trim();
              const found = printed.indexOf(want, at);
              expect(
                found,
                `${file}:${block.line}: '${want}' not printed (after line ${at} of the output)\n${run.stdout}`,
              ).to.be.at.least(0);
              at = found + 1;
            }
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      }
    });
  }
});
