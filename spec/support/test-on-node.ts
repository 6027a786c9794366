// `npm run test:node -- 24`: every spec of `npm test` (but the type check, which does not depend on
// the Node that runs it), run by Node 24 or 26 (see node-binaries.ts). Exits as mocha does.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NODE_LINES, nodeBinary, type NodeLine } from './node-binaries.ts';
import { ROOT } from './runtime-binaries.ts';

const line = process.argv[2];
if (!NODE_LINES.includes(line as NodeLine)) {
  console.error(`usage: npm run test:node -- <${NODE_LINES.join('|')}> [mocha arguments]`);
  process.exit(2);
}
const node = nodeBinary(line as NodeLine);
const extra = process.argv.slice(3);
const specs = extra.length > 0 ? extra : ['spec/**/*.spec.ts', '--ignore', 'spec/interop/**'];
console.log(`${node} (${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()})`);
const run = spawnSync(node, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...specs], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
