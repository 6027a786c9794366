// docs/rest-registry.md's table of registry options names every member of `RegistryOptions`
// (transports/protocol/options.ts) and of the codec options it extends (core/options.ts), and no other.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The optional members (`name?:`) of `interface name` in `source`. */
function membersOf(source: string, name: string): string[] {
  const start = source.indexOf(`export interface ${name} `);
  expect(start, name).to.be.above(-1);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  return [...body.matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1]!);
}

describe('docs: the registry options table', () => {
  it('lists every option of RegistryOptions and of the read and write options it extends', () => {
    const core = read('core/options.ts');
    const options = [
      ...membersOf(read('transports/protocol/options.ts'), 'RegistryOptions'),
      ...membersOf(core, 'ReadOptions'),
      ...membersOf(core, 'WriteOptions'),
    ];
    const page = read('docs/rest-registry.md');
    const table = page.slice(page.indexOf('| option | default | effect |'));
    const rows = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!);
    expect([...rows].sort()).to.deep.equal([...options].sort());
  });
});
