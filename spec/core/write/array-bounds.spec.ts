// Writers bound what they write: a hole of a sparse array is no value of any descriptor, and an
// array longer than MAX_WRITE_ITEMS is refused before any element is written. Both fail at once
// with a WriteError, in every codec, on the generated path and the closure path, where a writer
// walking `new Array(4294967295)` would loop for a minute and then crash. The cases run in a child
// process with a small heap and a timeout (spec/support/array-bounds-child.ts).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAX_WRITE_ITEMS } from '../../../core/write/array-bounds.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function run(forbidCodeGeneration: boolean): Record<string, string> {
  const flags = [
    '--max-old-space-size=96',
    ...(forbidCodeGeneration ? ['--disallow-code-generation-from-strings'] : []),
  ];
  const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', 'spec/support/array-bounds-child.ts'], {
    cwd: root,
    encoding: 'utf8',
    // Generous for a loaded machine; the writers answer in milliseconds, a walk over the holes in minutes.
    timeout: 15_000,
  });
  expect(child.error, 'the child answered before its timeout').to.equal(undefined);
  expect(child.status, child.stderr).to.equal(0);
  return JSON.parse(child.stdout) as Record<string, string>;
}

/** What every codec answers for each case; `written` by codec where it writes. */
const EXPECTED: Record<string, string | Record<string, string>> = {
  'longest sparse array of optional elements': 'WriteError limit_exceeded ',
  'longest sparse array of nullable elements': 'WriteError limit_exceeded ',
  'longest sparse array of void elements': 'WriteError limit_exceeded ',
  'longest sparse array of integers': 'WriteError limit_exceeded ',
  'longest sparse array in an object': 'WriteError limit_exceeded /list',
  'longest sparse array as t.unknown()': 'WriteError limit_exceeded ',
  'a hole between values': 'WriteError type_mismatch /1',
  'a hole after values': 'WriteError type_mismatch /2',
  'a hole in a tuple': 'WriteError type_mismatch /1',
  'a hole in t.unknown()': 'WriteError type_mismatch /0',
  'explicit undefined elements (no hole)': {
    json: 'wrote [null,1,null]',
    msgpack: 'wrote 4 bytes',
    cbor: 'wrote 4 bytes',
  },
  'a huge array-like of integers': 'WriteError limit_exceeded ',
  'a huge array-like as t.unknown()': 'WriteError limit_exceeded ',
  'a huge array-like of optional elements': 'WriteError limit_exceeded ',
};

function expected(): Record<string, string> {
  const all: Record<string, string> = {};
  for (const [name, answer] of Object.entries(EXPECTED)) {
    for (const codec of ['json', 'msgpack', 'cbor'])
      all[`${codec}: ${name}`] = typeof answer === 'string' ? answer : answer[codec]!;
  }
  return all;
}

describe('core/write: writers refuse sparse and huge arrays at once', () => {
  it('the bound is documented: 2^28 elements, what JSON.stringify cannot write either', () => {
    expect(MAX_WRITE_ITEMS).to.equal(2 ** 28);
    expect(() => JSON.stringify(new Array(MAX_WRITE_ITEMS + 1))).to.throw(RangeError);
  });

  it('with generated code', function () {
    this.timeout(30_000);
    expect(run(false)).to.deep.equal(expected());
  });

  it('with closures alone (code generation forbidden)', function () {
    this.timeout(30_000);
    expect(run(true)).to.deep.equal(expected());
  });
});
