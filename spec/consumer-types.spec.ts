// The package's types as a project that installed it sees them: the package built as `npm run build`
// builds it, installed (its package.json and dist/) in a consumer project that imports every entry,
// type-checked with the tsconfig the README gives (read from the README) and `skipLibCheck` off,
// in an ES module and in a CommonJS package. And what the README says a setting is needed for.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(root, 'node_modules/typescript/bin/tsc');

/** The tsconfig of the README's "TypeScript settings", the JSON block of that section. */
function readmeTsconfig(): { compilerOptions: Record<string, unknown> } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### TypeScript settings'));
  const block = /^```json\n([\s\S]*?)^```/m.exec(section);
  if (block === null) throw new Error('README.md: no ```json block under "### TypeScript settings"');
  return JSON.parse(block[1]!) as { compilerOptions: Record<string, unknown> };
}

const CONSUMER = `
import { Registry, meta, method, service, t, type Implementation, type Infer } from 'lacquerjs';
import { json } from 'lacquerjs/json';
import { msgpack } from 'lacquerjs/msgpack';
import { cbor } from 'lacquerjs/cbor';
import { HttpServer, serveCluster } from 'lacquerjs/http';
import { toFetchHandler } from 'lacquerjs/fetch';
import { createClient } from 'lacquerjs/client';
import { openTelemetry } from 'lacquerjs/otel';

const User = t.object({ id: t.u64(), name: t.string() }, { name: 'User' });
type User = Infer<typeof User>;
const UserApi = service({ getUser: method([t.u64()], User) });
class UserService implements Implementation<typeof UserApi.methods> {
  getUser(id: bigint): User { return { id, name: 'Ann' }; }
}
meta(UserService, UserApi);
const registry = new Registry({ telemetry: openTelemetry() }).on(new UserService());
export const server = new HttpServer().mount('/api', registry.endpoints).bind(0);
export const handler = toFetchHandler('/api', registry.endpoints);
export const api = createClient(UserApi, { baseUrl: 'http://127.0.0.1/api', codec: msgpack });
export const text: string = json.encode(User, { id: 9007199254740993n, name: 'Ann' });
export const bytes: Uint8Array = cbor.encode(User, { id: 1n, name: 'Bo' });
export const cluster: typeof serveCluster = serveCluster;
`;

describe("the package's types in a consumer project (built as npm run build builds it)", function () {
  this.timeout(60_000);
  // Inside the repository, so that the consumer finds @types/node as an installed project does.
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(root, '.consumer-check-'));
    const pkg = join(dir, 'node_modules', 'lacquerjs');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
    const build = spawnSync(
      process.execPath,
      [TSC, '-p', join(root, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')],
      { encoding: 'utf8', cwd: root, timeout: 50_000 },
    );
    expect(build.stdout + build.stderr, 'the build').to.equal('');
    writeFileSync(join(dir, 'app.ts'), CONSUMER);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** tsc's report on the consumer with `compilerOptions`, in a package of `type`. */
  function check(compilerOptions: Record<string, unknown>, type: 'module' | 'commonjs'): string {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true, skipLibCheck: false }, files: ['app.ts'] }),
    );
    const tsc = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', cwd: dir, timeout: 50_000 });
    return tsc.stdout + tsc.stderr;
  }

  it("type-checks with the README's tsconfig, as an ES module and in a CommonJS package", () => {
    const { compilerOptions } = readmeTsconfig();
    expect(check(compilerOptions, 'module')).to.equal('');
    expect(check(compilerOptions, 'commonjs')).to.equal('');
  });

  it('lacquerjs/http needs "node" in "types", as the README says', () => {
    const { compilerOptions } = readmeTsconfig();
    expect(check({ ...compilerOptions, types: [] }, 'module')).to.include("Cannot find namespace 'NodeJS'");
  });

  it('Bundler resolution reads the exports too', () => {
    const { compilerOptions } = readmeTsconfig();
    expect(check({ ...compilerOptions, module: 'ESNext', moduleResolution: 'Bundler' }, 'module')).to.equal('');
  });

  it('a target below ES2020 refuses the bigint literals that 64-bit values are written with, as the README says', () => {
    const { compilerOptions } = readmeTsconfig();
    expect(check({ ...compilerOptions, target: 'ES2019' }, 'module')).to.include(
      'BigInt literals are not available when targeting lower than ES2020',
    );
  });
});
