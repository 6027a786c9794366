// The README's examples are code that runs: every ```ts runnable block is executed, and each
// `//=> text` comment must appear as a line of what the block printed.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts runnable\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Entry points of the package, resolved to the sources so the examples run without a build. */
const ENTRY_POINTS: Record<string, string> = {
  lacquer: 'core/index.ts',
  'lacquer/json': 'codecs/json/index.ts',
  'lacquer/msgpack': 'codecs/msgpack/index.ts',
  'lacquer/cbor': 'codecs/cbor/index.ts',
  'lacquer/http': 'transports/http/index.ts',
  'lacquer/fetch': 'transports/fetch/index.ts',
  'lacquer/client': 'transports/client/index.ts',
};

describe('README', () => {
  it('has runnable examples', () => {
    expect(blocks.length).to.be.greaterThan(2);
  });

  blocks.forEach((code, i) => {
    const firstLine = code.split('\n').find((l) => !l.startsWith('import') && l.trim() !== '') ?? '';
    it(`example ${i + 1} runs and prints what it says (${firstLine.trim().slice(0, 50)})`, () => {
      const source = code.replace(/from '(lacquer(?:\/\w+)?)'/g, (whole, name: string) => {
        const file = ENTRY_POINTS[name];
        if (file === undefined) throw new Error(`README imports unknown entry point ${name}`);
        return `from ${JSON.stringify(join(root, file))}`;
      });
      const file = join(mkdtempSync(join(tmpdir(), 'lacquer-readme-')), `example-${i + 1}.ts`);
      writeFileSync(file, source);
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: root, timeout: 30_000 });
      expect(run.status, run.stderr).to.equal(0);
      const printed = run.stdout.split('\n');
      for (const [, expected] of code.matchAll(/\/\/=> (.*)$/gm)) expect(printed, run.stdout).to.include(expected!.trim());
    });
  });
});
