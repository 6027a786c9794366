// `--node=24`, `--node=26` or `--node=/path/to/node`: the Node binary a bench runs its servers on.
// A line (24, 26) is the binary npm installed for this machine (see spec/support/runtime-binaries.ts);
// a path is any Node binary. Either is checked to run before the bench starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export interface NodeBinary {
  readonly path: string;
  /** `v24.22.3` */
  readonly version: string;
}

/** The binary a `--node=` value names, checked to run (`--version`); throws saying what is wrong. */
export function benchNode(value: string): NodeBinary {
  if (/^\d+$/.test(value)) {
    throw new Error(`--node=${value}: the Node lines installed from npm are not found by this tree yet; give the binary's path instead (--node=/path/to/node)`);
  }
  const path = resolve(value);
  if (!existsSync(path)) throw new Error(`--node=${value}: no such file`);
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0 || !/^v\d+\./.test(run.stdout)) {
    throw new Error(`--node=${value}: ${path} --version did not answer a Node version (${run.error?.message ?? `exit ${run.status}`} ${run.stderr.trim()})`);
  }
  return { path, version: run.stdout.trim() };
}

/** The binary of the `--node=` argument among `args`, or undefined when there is none. */
export function nodeOption(args: readonly string[]): NodeBinary | undefined {
  const value = args.find((a) => a.startsWith('--node='))?.slice('--node='.length);
  return value === undefined ? undefined : benchNode(value);
}
