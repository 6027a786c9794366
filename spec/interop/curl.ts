// curl for the interop specs: run with arguments, and the check that it is installed (a spec that
// needs it fails, saying what to install, rather than skipping).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** Fails with what to install when curl is missing. */
export async function requireCurl(): Promise<void> {
  try {
    await run('curl', ['--version']);
  } catch (e) {
    throw new Error(
      `curl is required by this spec and was not found (${(e as Error).message}); install it: apt-get install curl`,
    );
  }
}
