// Code generation is a speed-up, never a requirement: on a platform that allows `new Function`
// while it starts and refuses it later (workerd during a request), what was compiled at start-up
// keeps its generated code, what comes later takes the closure path, with the same results and
// without reporting the refusal as a bug.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('../../support/refused-codegen-child.ts', import.meta.url));

describe('core/codegen: code generation refused after start-up', () => {
  it('keeps the code compiled when the registry was built, and reads and writes later descriptors with closures, silently', function () {
    this.timeout(60_000);
    const run = spawnSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr, 'nothing is reported as a bug').to.equal('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.results).to.deep.equal({ json: true, msgpack: true, cbor: true });
    expect(out.endpoint).to.deep.equal([200, '{"id":7,"name":"x"}']);
    expect(out.earlyGenerated, 'the registry compiled its endpoints while it could').to.equal(true);
    expect(out.lateGenerated, 'a descriptor first used after the refusal has no generated code').to.equal(false);
    expect(out.reports).to.deep.equal([]);
  });
});
