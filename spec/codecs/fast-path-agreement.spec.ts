// Every codec has two paths, generated code and closures, and they must answer alike: the same
// text or bytes, the same value, the same error, for every descriptor (empty and one-member
// containers at every depth included) and every value, valid or near. Generated code that throws
// where the closures answer is a bug even when the answer comes out right (the closure path gave
// it, and a report was printed): not one report may appear. Both runs are child processes with the
// same seed, so that they make the same descriptors with the same names.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = 'spec/support/fast-path-agreement-child.ts';
const RUNS = 400;

interface Run {
  readonly outcomes: readonly string[];
  readonly cases: readonly string[];
  readonly reports: readonly string[];
}

function run(seed: number, forbidCodeGeneration: boolean): Run {
  const flags = forbidCodeGeneration ? ['--disallow-code-generation-from-strings'] : [];
  const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', CHILD, String(seed), String(RUNS)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(child.status, child.stderr).to.equal(0);
  return JSON.parse(child.stdout) as Run;
}

describe('codecs: generated code and closures agree', () => {
  for (const seed of [1, 2]) {
    it(`on every codec's encode and decode, with no report of generated code (property, seed ${seed})`, function () {
      this.timeout(120_000);
      const generated = run(seed, false);
      const closures = run(seed, true);
      expect(generated.cases, 'both runs made the same cases').to.deep.equal(closures.cases);
      expect(generated.reports, 'reports of generated code').to.deep.equal([]);
      expect(closures.reports).to.deep.equal([]);
      expect(generated.outcomes.length).to.equal(closures.outcomes.length);
      generated.outcomes.forEach((line, i) => {
        const other = closures.outcomes[i]!;
        if (line === other) return;
        const n = Number(line.slice(0, line.indexOf(' ')));
        expect.fail(`generated: ${line}\nclosures:  ${other}\ncase: ${generated.cases[n]}`);
      });
    });
  }
});
