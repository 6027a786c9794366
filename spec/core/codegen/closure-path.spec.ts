// Readers and writers have two paths: generated code, and closures for platforms that forbid it
// (a Content-Security-Policy without 'unsafe-eval'). The main run exercises the generated path;
// this spec runs the reading and writing specs again with code generation forbidden.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canGenerateCode } from '../../../core/codegen/codegen.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const SPECS = [
  'spec/core/read-write-properties.spec.ts',
  'spec/core/read/missing-keys.spec.ts',
  'spec/core/read/missing-keys-unless-default.spec.ts',
  'spec/core/errors/read-errors.spec.ts',
  'spec/codecs/json/json.spec.ts',
  'spec/codecs/msgpack/msgpack.spec.ts',
  'spec/codecs/cbor/cbor.spec.ts',
  'spec/codecs/binary/properties.spec.ts',
  'spec/codecs/conformance.spec.ts',
  'spec/codecs/json/direct-reader.spec.ts',
  'spec/codecs/writers-read-once.spec.ts',
  'spec/codecs/unicode-text.spec.ts',
  'spec/core/read/variant-lazy.spec.ts',
  'spec/core/read/constraints.spec.ts',
  'spec/core/read/constraint-defaults.spec.ts',
  'spec/core/read/timestamp-unknown-int64-text.spec.ts',
  'spec/core/read/all-errors.spec.ts',
  'spec/core/write/constraints.spec.ts',
  'spec/core/write/defaults.spec.ts',
  'spec/codecs/write-timestamp.spec.ts',
  'spec/core/write/unknown.spec.ts',
  'spec/core/write/variant-lazy.spec.ts',
  'spec/codecs/read-timestamp-wire.spec.ts',
  'spec/codecs/enum-errors.spec.ts',
  'spec/codecs/empty-containers.spec.ts',
  'spec/core/read/presence.spec.ts',
  'spec/codecs/timestamp-round-trip.spec.ts',
];

/** Node's flags for a process where `new Function` throws, as under a CSP without 'unsafe-eval'. */
const FORBID = ['--disallow-code-generation-from-strings', '--import', 'tsx'];

describe('core/codegen: the closure path (no code generation)', () => {
  it('the main run uses generated code', () => {
    expect(canGenerateCode()).to.equal(true);
  });

  it('the flag the rerun uses does forbid code generation', () => {
    const probe = spawnSync(
      process.execPath,
      [
        ...FORBID,
        '--input-type=module',
        '-e',
        "const { canGenerateCode } = await import('./core/codegen/codegen.ts'); process.exit(canGenerateCode() ? 1 : 0);",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(probe.status, probe.stderr).to.equal(0);
  });

  it('passes the reading and writing specs with code generation forbidden', function () {
    this.timeout(120_000);
    // mocha runs a list with a missing file without a word: a renamed spec must be renamed here too.
    expect(SPECS.filter((spec) => !existsSync(join(root, spec)))).to.deep.equal([]);
    const run = spawnSync(
      process.execPath,
      [
        ...FORBID,
        'node_modules/mocha/bin/mocha.js',
        '--no-config',
        '--reporter',
        'dot',
        '--timeout',
        '60000',
        // ajv compiles schemas with new Function, so the schema agreement property stays in the main run.
        '--grep',
        'independent JSON Schema validator',
        '--invert',
        ...SPECS,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.match(/\d+ passing/);
  });
});
