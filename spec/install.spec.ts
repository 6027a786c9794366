// `npm install` and `npm test` on a machine with nothing but Node and npm, on any os and cpu.
//
// package-lock.json: npm refuses a package whose
// `os`, `cpu` or `libc` does not fit the machine (EBADPLATFORM) unless every path to it runs through
// an optionalDependency: the lock marks those `optional: true` (`devOptional` alone is not enough:
// such a package is also a required dependency of something). And `npm ci` installs from the lock
// alone, so the lock must hold the entry of every optional dependency, the other machines' builds
// included, or `npm ci` on those machines misses their build.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, lockPackages } from './support/runtime-binaries.ts';

/** The lock entry that `name` resolves to from the package at `from` (node_modules lookup, upwards). */
function resolveInLock(packages: Readonly<Record<string, unknown>>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

describe('install: package-lock.json on every machine', () => {
  const packages = lockPackages() as Readonly<
    Record<
      string,
      {
        os?: string[];
        cpu?: string[];
        libc?: string[];
        optional?: boolean;
        devOptional?: boolean;
        dev?: boolean;
        optionalDependencies?: Record<string, string>;
      }
    >
  >;

  it('every package pinned to an os, cpu or libc is optional, so npm skips it on other machines instead of refusing', () => {
    const pinned = Object.entries(packages).filter(
      ([, p]) => p.os !== undefined || p.cpu !== undefined || p.libc !== undefined,
    );
    expect(
      pinned.length,
      "the lock holds platform packages (esbuild's, typescript's, the runtimes')",
    ).to.be.greaterThan(10);
    const required = pinned
      .filter(([, p]) => p.optional !== true)
      .map(
        ([path, p]) =>
          `${path} (${[p.os, p.cpu, p.libc]
            .filter((l) => l !== undefined)
            .map((l) => l.join(','))
            .join(' ')}; ${p.devOptional === true ? 'devOptional' : p.dev === true ? 'dev' : 'required'})`,
      );
    expect(
      required,
      'npm install fails with EBADPLATFORM on every other machine: make these optionalDependencies',
    ).to.deep.equal([]);
  });

  it('package.json names no platform package as a dependency or devDependency', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const named = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
    expect(
      named.filter((name) => {
        const p = packages[`node_modules/${name}`];
        return p !== undefined && (p.os !== undefined || p.cpu !== undefined || p.libc !== undefined);
      }),
    ).to.deep.equal([]);
  });

  it("every optional dependency has its entry, the other machines' builds included, so npm ci installs them there", () => {
    const missing: string[] = [];
    for (const [path, p] of Object.entries(packages)) {
      for (const name of Object.keys(p.optionalDependencies ?? {})) {
        if (resolveInLock(packages, path, name) === undefined)
          missing.push(`${name} (of ${path === '' ? 'the root' : path})`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('the runtimes come with a build for macOS, Windows and Linux on x64 and arm64', () => {
    for (const [umbrella, builds] of Object.entries({
      bun: [
        '@oven/bun-darwin-aarch64',
        '@oven/bun-darwin-x64',
        '@oven/bun-linux-aarch64',
        '@oven/bun-linux-x64',
        '@oven/bun-windows-x64',
        '@oven/bun-windows-aarch64',
      ],
      deno: [
        '@deno/darwin-arm64',
        '@deno/darwin-x64',
        '@deno/linux-arm64-glibc',
        '@deno/linux-x64-glibc',
        '@deno/win32-x64',
        '@deno/win32-arm64',
      ],
      workerd: [
        '@cloudflare/workerd-darwin-arm64',
        '@cloudflare/workerd-darwin-64',
        '@cloudflare/workerd-linux-arm64',
        '@cloudflare/workerd-linux-64',
        '@cloudflare/workerd-windows-64',
      ],
    })) {
      expect(packages[`node_modules/${umbrella}`]?.dev, `${umbrella} is a devDependency`).to.equal(true);
      for (const build of builds) expect(packages[`node_modules/${build}`]?.optional, build).to.equal(true);
    }
  });
});

/** Every .ts file under `dir`, relative to the repository. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

// The programs a machine with only Node and npm lacks (Debian's slim images have neither curl nor
// Python), named as a spec would run them: a string that is just the name, or a path to it.
const SYSTEM_PROGRAM = /['"`](?:[\w/]*\/)?(curl|wget|python3?|perl|ruby|java|openssl)['"`]/;

describe('install: npm test needs nothing but Node and npm', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

  it('no spec that npm test runs starts a system program: those are in spec/interop, run by npm run test:interop', () => {
    const offenders = tsFiles(join(ROOT, 'spec'))
      .filter((file) => !file.startsWith(join('spec', 'interop')))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => {
            const m = SYSTEM_PROGRAM.exec(line);
            return m === null ? [] : [`${file}:${i + 1} runs ${m[1]}`];
          }),
      );
    expect(offenders).to.deep.equal([]);
  });

  it('npm test leaves spec/interop out, and npm run test:interop runs it', () => {
    expect(scripts.test).to.include('--ignore "spec/interop/**"');
    expect(scripts['test:interop']).to.include('"spec/interop/**/*.spec.ts"');
  });
});

describe('install: the docs ship in the package', () => {
  /** The files `npm pack` would put in the package (without building it: dist/ is not checked here). */
  const packed = (): Set<string> => {
    const run = spawnSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: ROOT, encoding: 'utf8', shell: process.platform === 'win32' },
    );
    expect(run.status, run.stderr).to.equal(0);
    return new Set((JSON.parse(run.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
  };

  it('holds every page of docs/, and every relative link of the README and of those pages leads to a file the package holds', () => {
    const files = packed();
    const pages = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    expect(
      pages.filter((page) => !files.has(page)),
      'pages left out of the package',
    ).to.deep.equal([]);
    const broken = ['README.md', ...pages].flatMap((page) => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) =>
          relative(ROOT, join(ROOT, page, '..', target))
            .split('\\')
            .join('/'),
        )
        .filter((target) => !files.has(target) && ![...files].some((f) => f.startsWith(`${target}/`)))
        .map((target) => `${page} → ${target}`);
    });
    expect(broken, 'links to files the package does not hold').to.deep.equal([]);
  });
});
