// `npm start` (examples/server.ts): what it prints (tokens, a curl command that works, a log line per
// call), and on a port that is taken or with a token it cannot use: one line on stderr, no stack, a
// non-zero exit. The printed command is sent with fetch, split as a shell would split it; curl itself
// runs against the same app in spec/interop/curl.spec.ts (`npm run test:interop`).
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = fileURLToPath(new URL('../../examples/server.ts', import.meta.url));
const env = (port: number) => ({ ...process.env, PORT: String(port), HOST: '127.0.0.1' });
const inUse = (port: number) =>
  `lacquer: port ${port} on 127.0.0.1 is already in use (EADDRINUSE); set PORT=<another port> or stop the other process`;

/** Runs the example server to its end (it ends at once when it cannot listen). */
function runExample(port: number) {
  return spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: env(port),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

function expectInUse(run: ReturnType<typeof runExample>, port: number): void {
  expect(run.error, 'the example server did not end by itself').to.equal(undefined);
  expect(run.status).to.be.a('number').and.not.equal(0);
  expect(run.stderr).not.to.include('    at ');
  expect(run.stderr.trim()).to.equal(inUse(port));
  expect(run.stdout).not.to.include('listening');
}

describe('examples: the example server on a port that is taken', () => {
  let holder: Server | undefined;
  let first: ChildProcess | undefined;
  afterEach(async () => {
    holder?.close();
    holder = undefined;
    if (first !== undefined && first.exitCode === null && first.signalCode === null) {
      first.kill('SIGTERM');
      await once(first, 'exit');
    }
    first = undefined;
  });

  it('says so in one line and exits non-zero when another server holds the port', async () => {
    holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as AddressInfo;
    expectInUse(runExample(port), port);
  });

  it('says so in one line and exits non-zero when started twice on the same port', async () => {
    first = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: env(0),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    first.stdout!.setEncoding('utf8');
    first.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const port = await new Promise<number>((resolve, reject) => {
      const onData = (d: string) => {
        out += d;
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (match !== null) {
          first!.stdout!.off('data', onData);
          resolve(Number(match[1]));
        }
      };
      first!.stdout!.on('data', onData);
      first!.once('exit', (code) => reject(new Error(`the first example server exited (${code}): ${out}`)));
    });
    expectInUse(runExample(port), port);
  });
});

/** The environment without the example's token variables, plus `extra`. */
function tokenEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { LACQUER_DEMO_TOKEN: _d, LACQUER_READONLY_TOKEN: _r, ...rest } = process.env;
  return { ...rest, PORT: '0', HOST: '127.0.0.1', ...extra };
}

/** A running example server: its stdout so far, and a wait for a line of it. */
interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  /** Resolves with the first match of `pattern` in stdout, now or once it is printed. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
}

function startExample(env: NodeJS.ProcessEnv, started: ChildProcess[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match === null) return;
        child.stdout!.off('data', check);
        child.off('exit', ended);
        resolve(match);
      };
      const ended = (code: number | null) =>
        reject(new Error(`the example server exited (${code}) before printing ${pattern}: ${out}${err}`));
      child.stdout!.on('data', check);
      child.once('exit', ended);
      check();
    });
  // The curl hint is the last line printed at start.
  return printed(/try: curl .* (http:\/\/127\.0\.0\.1:\d+)\/api\/getAllUsers\n/).then((m) => ({
    child,
    url: m[1]!,
    stdout: () => out,
    printed,
  }));
}

/** A GET, or a POST of `body`, with Node's fetch: the body of the answer, a newline and its status. */
async function send(url: string, headers: Record<string, string>, body?: string): Promise<string> {
  const res = await fetch(url, body === undefined ? { headers } : { method: 'POST', headers, body });
  return `${await res.text()}\n${res.status}`;
}

describe('examples: npm start with bearer tokens', function () {
  this.timeout(60_000);
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
  });

  it('prints the endpoints, the default tokens and curl commands that work, then a log line for each call', async () => {
    const example = await startExample(tokenEnv(), started);
    const lines = example.stdout().split('\n');
    expect(lines).to.include.members([
      '  GET /api/getAllUsers',
      '  POST /api/getUserById',
      '  GET /api/books',
      '  POST /api/books',
      '  GET /api/books/search',
      '  GET /api/books/:id',
      '  PUT /api/books/:id',
      '  DELETE /api/books/:id',
      '  GET /api/books/events',
      '  reading books is public; every other endpoint needs Authorization: Bearer <token>:',
      '    demo-token       reads and writes (LACQUER_DEMO_TOKEN)',
      '    read-only-token  reads only: writes answer 403 (LACQUER_READONLY_TOKEN)',
      `  try: curl '${example.url}/api/books/search?query=programming&limit=1'`,
      `  try: curl -N -H 'Accept: application/jsonl' '${example.url}/api/books/events?count=5'`,
      `  try: curl -H 'Authorization: Bearer demo-token' ${example.url}/api/getAllUsers`,
    ]);
    // The printed commands, as a shell would split them.
    const search = /try: curl '([^']*)'\n/.exec(example.stdout())!;
    expect(await send(search[1]!, { 'X-Request-Id': 'npm-start-0' })).to.match(
      /^\{"books":\[\{"id":2,"title":"The C Programming Language".*\],"total_count":2,"has_more":true\}\n200$/,
    );
    const [searched] = await example.printed(/^GET \/api\/books\/search .*(?=\n)/m);
    expect(searched).to.match(/^GET \/api\/books\/search 200 \d+\.\d ms req=npm-start-0$/);
    const stream = /try: curl -N -H '([^:']*): ([^']*)' '([^']*)'\n/.exec(example.stdout())!;
    const events = (await send(stream[3]!, { [stream[1]!]: stream[2]! })).split('\n');
    expect(events.slice(0, 5).map((line) => JSON.parse(line).text)).to.deep.equal([
      'borrowed: Structure and Interpretation of Computer Programs',
      'borrowed: The C Programming Language',
      'borrowed: Programming Pearls',
      'returned: Structure and Interpretation of Computer Programs',
      'returned: The C Programming Language',
    ]);
    expect(events.slice(5), 'the clean end of JSON Lines (two blank lines), then the status').to.deep.equal([
      '',
      '',
      '',
      '200',
    ]);
    const command = /try: curl -H '([^:']*): ([^']*)' (\S+)/.exec(example.stdout())!;
    expect(await send(command[3]!, { [command[1]!]: command[2]!, 'X-Request-Id': 'npm-start-1' })).to.match(
      /^\[\{"id":1,"name":"Ada".*\n200$/,
    );
    const [line] = await example.printed(/^GET \/api\/getAllUsers .*(?=\n)/m);
    expect(line).to.match(/^GET \/api\/getAllUsers 200 \d+\.\d ms req=npm-start-1 caller=demo$/);
    expect(await send(`${example.url}/api/getAllUsers`, { 'X-Request-Id': 'npm-start-2' })).to.match(/\n401$/);
    const [refused] = await example.printed(/^GET \/api\/getAllUsers 401 .*(?=\n)/m);
    expect(refused).to.match(/ req=npm-start-2$/);
  });

  it('takes the tokens from LACQUER_DEMO_TOKEN and LACQUER_READONLY_TOKEN', async () => {
    const example = await startExample(
      tokenEnv({ LACQUER_DEMO_TOKEN: 'writer-7', LACQUER_READONLY_TOKEN: 'reader-7' }),
      started,
    );
    expect(example.stdout())
      .to.include('    writer-7  reads and writes')
      .and.include('    reader-7  reads only')
      .and.not.include('demo-token');
    expect(await send(`${example.url}/api/getAllUsers`, { Authorization: 'Bearer writer-7' })).to.match(/\n200$/);
    expect(await send(`${example.url}/api/getAllUsers`, { Authorization: 'Bearer demo-token' })).to.match(/\n401$/);
    const book = '{"book": {"id": 9, "title": "t", "author": "a", "isbn": "i", "year": 2000}}';
    const asReader = { Authorization: 'Bearer reader-7', 'Content-Type': 'application/json' };
    expect(await send(`${example.url}/api/books`, asReader, book)).to.match(/\n403$/);
  });

  it('refuses a token that a bearer header cannot carry, in one line', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: tokenEnv({ LACQUER_DEMO_TOKEN: 'two words' }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).to.be.a('number').and.not.equal(0);
    expect(run.stderr.trim()).to.equal(
      "lacquer: the demo token 'two words' holds characters a bearer token cannot have (A-Z a-z 0-9 - . _ ~ + /)",
    );
    expect(run.stdout).not.to.include('listening');
  });
});
