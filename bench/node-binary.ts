// `--node=24`, `--node=26` or `--node=/path/to/node`: the Node binary a bench runs its servers on.
// A line (24, 26) is Node's own build from npm, fetched on first use (spec/support/node-binaries.ts);
// a path is any Node binary. Either is checked to run before the bench starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { NODE_LINES, nodeBinary, type NodeLine } from '../spec/support/node-binaries.ts';

export interface NodeBinary {
  readonly path: string;
  /** `v24.22.3` */
  readonly version: string;
}

/** The binary a `--node=` value names, checked to run (`--version`); throws saying what is wrong. */
export function benchNode(value: string): NodeBinary {
  if (/^\d+$/.test(value)) {
    if (!NODE_LINES.includes(value as NodeLine))
      throw new Error(
        `--node=${value}: the lines fetched from npm are ${NODE_LINES.join(', ')}; give another as a path (--node=/path/to/node)`,
      );
    const path = nodeBinary(value as NodeLine);
    return { path, version: spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim() };
  }
  const path = resolve(value);
  if (!existsSync(path)) throw new Error(`--node=${value}: no such file`);
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0 || !/^v\d+\./.test(run.stdout)) {
    throw new Error(
      `--node=${value}: ${path} --version did not answer a Node version (${run.error?.message ?? `exit ${run.status}`} ${run.stderr.trim()})`,
    );
  }
  return { path, version: run.stdout.trim() };
}

/** The binary of the `--node=` argument among `args`, or undefined when there is none. */
export function nodeOption(args: readonly string[]): NodeBinary | undefined {
  const value = args.find((a) => a.startsWith('--node='))?.slice('--node='.length);
  return value === undefined ? undefined : benchNode(value);
}
