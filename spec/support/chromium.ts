// Finds the Chromium that the browser specs drive through playwright-core, first found wins:
//   1. LACQUER_CHROMIUM: the path of a Chrome or Chromium executable, used as it is;
//   2. a system Chrome or Chromium at the usual places (Debian's /usr/bin/chromium, Google Chrome, ...);
//   3. the build that the devDependency @sparticuz/chromium ships (linux-x64 only), inflated once into
//      $TMPDIR/lacquer-chromium-<its version>/.
// None found: `findChromium()` throws, saying what to install. The specs fail then; they never skip.
import { accessSync, constants, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_ENV = 'LACQUER_CHROMIUM';

/**
 * Launch flags for every source. Without the background-networking ones Chromium keeps trying to reach
 * Google and stalls here. Not @sparticuz/chromium's own `chromium.args`: they are for AWS Lambda and
 * include --disable-web-security and --allow-running-insecure-content, which would switch off the very
 * CORS and CSP behaviour the browser spec checks; its build (a headless shell) needs none of them here.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, for messages. */
  source: string;
}

const SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA]
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe')),
};

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The binary of @sparticuz/chromium, inflated into a directory of its own per version (atomically, so an interrupted run leaves nothing half-written). */
async function sparticuzChromium(): Promise<string> {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@sparticuz/chromium'); // <package>/build/index.js
  const { version } = require(join(dirname(main), '..', 'package.json')) as { version: string };
  const dir = join(tmpdir(), `lacquer-chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (isExecutable(binary)) return binary;
  const { default: chromium } = await import('@sparticuz/chromium');
  // executablePath() inflates the binary, its fonts and SwiftShader into os.tmpdir(), and returns an
  // existing $TMPDIR/chromium whatever its version: point it at a fresh staging directory instead.
  const staging = mkdtempSync(`${dir}-`);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await chromium.executablePath();
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  try {
    renameSync(staging, dir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true }); // another run got there first
    if (!isExecutable(binary)) throw e;
  }
  return binary;
}

/** The Chromium to launch; throws with what to install when there is none. */
export async function findChromium(): Promise<FoundChromium> {
  const fromEnv = process.env[CHROMIUM_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isExecutable(fromEnv))
      throw new Error(`${CHROMIUM_ENV}=${fromEnv} is not an executable file; point it at a Chrome or Chromium binary`);
    return { executablePath: fromEnv, source: `$${CHROMIUM_ENV}` };
  }
  const system = (SYSTEM_PATHS[process.platform] ?? []).find(isExecutable);
  if (system !== undefined) return { executablePath: system, source: 'the system' };
  if (process.platform === 'linux' && process.arch === 'x64') {
    let reason: string;
    try {
      return { executablePath: await sparticuzChromium(), source: '@sparticuz/chromium' };
    } catch (e) {
      reason = (e as Error).message.split('\n')[0] ?? '';
    }
    throw new Error(
      `no Chromium found: ${CHROMIUM_ENV} is not set, there is no Chrome or Chromium at ${SYSTEM_PATHS.linux!.join(', ')}, ` +
        `and the devDependency @sparticuz/chromium could not provide one (${reason}); run \`npm install\`, ` +
        `or install Chromium (apt-get install chromium), or set ${CHROMIUM_ENV}=/path/to/chrome`,
    );
  }
  const looked = SYSTEM_PATHS[process.platform]?.join(', ');
  throw new Error(
    `no Chromium found: ${CHROMIUM_ENV} is not set${looked ? ` and there is no Chrome or Chromium at ${looked}` : ''}; ` +
      `install Google Chrome or Chromium, or set ${CHROMIUM_ENV}=/path/to/chrome ` +
      `(the devDependency @sparticuz/chromium ships a linux-x64 build only, and this is ${process.platform}-${process.arch})`,
  );
}

/** Finds Chromium (see `findChromium`) and launches it headless; a failure names the executable and where it came from. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, source } = await findChromium();
  try {
    return await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (e) {
    throw new Error(`cannot launch Chromium ${executablePath} (from ${source}): ${(e as Error).message}`, { cause: e });
  }
}
