// Readers, writers, direct readers, guides and schemas walk descriptors as `Visitor`s (visit.ts), so a
// walker that leaves a form out does not compile. A `switch` over a descriptor's kind has a
// `default:` (or no case) that a new form falls into silently: none is left in the shipped code.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The shipped folders: every walker over descriptors in them is a visitor. */
const WALKERS = ['core', 'codecs', 'transports'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** `switch (d.kind)`, `switch (type.kind)`…: a dispatch on a descriptor's kind. */
const KIND_SWITCH = /switch\s*\([^()]*\.kind\s*\)/;

describe('walkers over descriptors', () => {
  it('are visitors: no switch over a descriptor’s kind anywhere in the shipped code', () => {
    const files = WALKERS.flatMap(sourceFiles);
    expect(files.length).to.be.greaterThan(30);
    const switches = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (KIND_SWITCH.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(switches).to.deep.equal([]);
  });
});
