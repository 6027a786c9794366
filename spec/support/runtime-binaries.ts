// Finds the Bun, Deno and workerd binaries that spec/runtimes and the Bun bench run. They come from
// npm: spec/runtimes/binaries is a local package, a devDependency, whose optionalDependencies are
// `bun`, `deno` and `workerd` (optional, so npm installs nothing where none fits, where a required
// `bun`, itself pinned to an os and cpu, would fail the whole install). Each lists one package per
// platform among its own optionalDependencies (`@oven/bun-darwin-aarch64`, `@deno/linux-x64-glibc`,
// ...), pinned to an os and cpu: npm installs the one for this machine and skips the others, and
// package-lock.json says which is for which machine (`os`, `cpu`, `libc`). The umbrella package's
// install script, when it runs, moves or links the binary into the umbrella package
// (`bun/bin/bun.exe`, `deno/deno`, `workerd/bin/workerd`); when it does not, the binary stays in the
// platform package. Both places are looked at. LACQUER_BUN, LACQUER_DENO and LACQUER_WORKERD name a
// binary to use instead, for a machine npm has no build for.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the runtimes are declared, for messages. */
const FROM = 'spec/runtimes/binaries/package.json';

export type RuntimeName = 'bun' | 'deno' | 'workerd';

/** What npm matches a package's `os`, `cpu` and `libc` against. */
export interface Machine {
  readonly platform: string;
  readonly arch: string;
  /** Linux only: which C library, as npm's `libc` field names it. */
  readonly libc?: 'glibc' | 'musl';
}

/** This machine, as npm sees it. */
export function thisMachine(): Machine {
  if (process.platform !== 'linux') return { platform: process.platform, arch: process.arch };
  // Node reports glibc's version when it runs on glibc, and none on musl.
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return {
    platform: process.platform,
    arch: process.arch,
    libc: header?.glibcVersionRuntime === undefined ? 'musl' : 'glibc',
  };
}

const describeMachine = (m: Machine) => `${m.platform}-${m.arch}${m.libc === undefined ? '' : ` (${m.libc})`}`;

interface Runtime {
  readonly label: string;
  /** The environment variable that names a binary to use instead. */
  readonly env: string;
  /** Where the binary is inside its platform package, and where the install script puts it inside the umbrella package. */
  readonly inPlatformPackage: (exe: string) => string;
  readonly inUmbrella: (exe: string) => string;
}

const RUNTIMES: Record<RuntimeName, Runtime> = {
  bun: {
    label: 'Bun',
    env: 'LACQUER_BUN',
    inPlatformPackage: (exe) => `bin/bun${exe}`,
    inUmbrella: () => 'bin/bun.exe',
  },
  deno: {
    label: 'Deno',
    env: 'LACQUER_DENO',
    inPlatformPackage: (exe) => `deno${exe}`,
    inUmbrella: (exe) => `deno${exe}`,
  },
  workerd: {
    label: 'workerd',
    env: 'LACQUER_WORKERD',
    inPlatformPackage: (exe) => `bin/workerd${exe}`,
    inUmbrella: (exe) => `bin/workerd${exe}`,
  },
};

interface LockEntry {
  readonly version?: string;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
  readonly libc?: readonly string[];
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

/** The packages of package-lock.json, by their path (`node_modules/<name>`). */
export function lockPackages(root = ROOT): Readonly<Record<string, LockEntry>> {
  return (JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> })
    .packages;
}

/** npm's rule for `os`, `cpu` and `libc`: a list allows what it names, or everything but what it names with `!`. */
function allows(list: readonly string[] | undefined, value: string | undefined): boolean {
  if (list === undefined || (list.length === 1 && list[0] === 'any')) return true;
  if (value === undefined) return false;
  if (list.includes(`!${value}`)) return false;
  return list.includes(value) || list.every((v) => v.startsWith('!'));
}

export const fitsMachine = (entry: LockEntry, m: Machine): boolean =>
  allows(entry.os, m.platform) &&
  allows(entry.cpu, m.arch) &&
  (m.platform !== 'linux' || entry.libc === undefined || allows(entry.libc, m.libc));

/** The umbrella package's platform packages, and the one for `machine` (undefined: none fits it). */
function platformPackages(
  name: RuntimeName,
  machine: Machine,
): { version: string; all: string[]; fits: string | undefined } {
  const packages = lockPackages();
  const umbrella = packages[`node_modules/${name}`];
  if (umbrella === undefined)
    throw new Error(
      `package-lock.json has no ${name}: it must be an optionalDependency of ${FROM}, and that package a devDependency`,
    );
  const all = Object.keys(umbrella.optionalDependencies ?? {});
  const fits = all.find((pkg) => {
    const entry = packages[`node_modules/${pkg}`];
    return entry !== undefined && fitsMachine(entry, machine);
  });
  return { version: umbrella.version ?? '?', all, fits };
}

/**
 * The binary of `name` for `machine`, checked to run (`--version`), or an Error saying exactly what
 * to install. `machine` and `env` are this process's unless given.
 */
export function findBinary(
  name: RuntimeName,
  machine: Machine = thisMachine(),
  env: NodeJS.ProcessEnv = process.env,
): { path: string; version: string } | Error {
  const runtime = RUNTIMES[name];
  const root = ROOT.replace(/[\\/]$/, '');
  const tried: string[] = [];
  const runs = (path: string): string | undefined => {
    if (!existsSync(path)) {
      tried.push(`${path} (absent)`);
      return undefined;
    }
    const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    if (run.status === 0) return run.stdout.trim().split('\n')[0]!;
    tried.push(
      `${path} (--version: ${run.error?.message ?? (run.signal === null ? `exit ${run.status}` : `killed by ${run.signal}`)} ${run.stderr.trim()})`,
    );
    return undefined;
  };

  const named = env[runtime.env];
  if (named !== undefined && named !== '') {
    const version = runs(named);
    if (version !== undefined) return { path: named, version };
    return new Error(`${runtime.env} names ${runtime.label}'s binary, and it does not run: ${tried.join('; ')}`);
  }

  const { version: umbrellaVersion, all, fits } = platformPackages(name, machine);
  if (fits === undefined) {
    return new Error(
      `${runtime.label} is missing, so the fetch handler cannot be checked in it: ${name}@${umbrellaVersion} (${FROM}) has no ` +
        `build for this machine (${describeMachine(machine)}; it has ${all.join(', ')}). Install ${runtime.label} by other means and set ` +
        `${runtime.env} to its binary.`,
    );
  }
  const exe = machine.platform === 'win32' ? '.exe' : '';
  const candidates: string[] = [];
  // The umbrella package holds the build of the platform package that npm installed, if it did.
  if (existsSync(join(root, 'node_modules', fits, 'package.json'))) {
    candidates.push(
      join(root, 'node_modules', fits, runtime.inPlatformPackage(exe)),
      join(root, 'node_modules', name, runtime.inUmbrella(exe)),
    );
  } else {
    tried.push(`${join(root, 'node_modules', fits)} (absent)`);
  }
  // Bun's builds for x64 need AVX2; its -baseline builds, not among bun's optionalDependencies, do not.
  if (name === 'bun' && machine.arch === 'x64')
    candidates.push(join(root, 'node_modules', `${fits}-baseline`, runtime.inPlatformPackage(exe)));
  for (const path of candidates) {
    const version = runs(path);
    if (version !== undefined) return { path, version };
  }
  let advice =
    `Run \`npm install\` in ${root}: ${name}@${umbrellaVersion} (${FROM}) installs ${fits}, ${runtime.label}'s build for ` +
    `this machine (${describeMachine(machine)}), as an optional dependency, which npm skips without failing when it cannot install it ` +
    `(\`npm ls ${fits}\` shows whether it is there)`;
  if (name === 'bun' && tried.some((t) => t.includes('SIGILL'))) {
    advice += `. This CPU lacks AVX2, which that build needs: run \`npm install --no-save ${fits}-baseline@${umbrellaVersion}\``;
  }
  return new Error(
    `${runtime.label} is missing, so the fetch handler cannot be checked in it. ${advice}. Or set ${runtime.env} to a ${runtime.label} binary. Looked for: ${tried.join('; ')}`,
  );
}

/** `findBinary`, throwing its Error: for a `before` hook, whose failure fails every test under it. */
export function requireBinary(name: RuntimeName): string {
  const found = findBinary(name);
  if (found instanceof Error) throw found;
  return found.path;
}
