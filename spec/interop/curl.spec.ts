// A client we did not write: curl against the example server, and the curl commands of the README
// and the docs run as written. Run by `npm run test:interop`, not `npm test`: curl is a system
// package (Debian's slim images lack it). Required there, never skipped.
// The server runs with the documented default tokens, whatever the environment says.
import { expect } from 'chai';
import { decode as cborDecode } from 'cbor-x';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExampleServer } from '../../examples/app.ts';
import { demoTokens } from '../../examples/auth.ts';
import { listen } from '../support/http-client.ts';
import { requireCurl, run } from './curl.ts';

interface CurlReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Runs curl with `-i` and splits its answer; the last response wins (after any 100 Continue). */
async function curl(...args: string[]): Promise<CurlReply> {
  const { stdout } = await run('curl', ['-sS', '-i', ...args], { encoding: 'buffer', maxBuffer: 1 << 24 });
  let rest = stdout;
  let head = '';
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    head = rest.subarray(0, end).toString('latin1');
    rest = rest.subarray(end + 4);
    if (!/^HTTP\/[\d.]+ 100 /.test(head)) break;
  }
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of headerLines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest };
}

/** curl's arguments for the documented tokens. */
const DEMO = ['-H', 'Authorization: Bearer demo-token'];
const READ_ONLY = ['-H', 'Authorization: Bearer read-only-token'];
const JSON_BODY = ['-H', 'Content-Type: application/json', '--data'];
const REFACTORING =
  '{"book": {"id": 4, "title": "Refactoring", "author": "Fowler", "isbn": "0201485672", "year": 1999}}';

/** A curl command of the docs, with the answer its comments show. */
interface DocumentedCommand {
  readonly command: string;
  /** From a `# HTTP/1.1 401` comment; `undefined`: any 2xx. */
  readonly status: number | undefined;
  /** From a `# {...}` comment right below a command without `-i`, when shown in full. */
  readonly body: string | undefined;
}

/** The curl commands to the example server in a page's `sh` blocks, continuation lines joined. */
function documentedCommands(file: string): DocumentedCommand[] {
  const text = readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
  const out: DocumentedCommand[] = [];
  for (const [, block] of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const lines = block!.replace(/\\\n\s*/g, '').split('\n');
    lines.forEach((line, i) => {
      if (!line.startsWith('curl ') || !line.includes('127.0.0.1:8080')) return;
      const comments: string[] = [];
      for (let j = i + 1; lines[j]?.startsWith('#'); j++) comments.push(lines[j]!.replace(/^# ?/, ''));
      const status = /^HTTP\/1\.1 (\d{3})/.exec(comments[0] ?? '')?.[1];
      const shown = comments[0]?.startsWith('{') || comments[0]?.startsWith('[') ? comments[0] : undefined;
      const body = / -i /.test(line) || shown?.includes('...') ? undefined : shown;
      out.push({ command: line, status: status === undefined ? undefined : Number(status), body });
    });
  }
  return out;
}

describe('interop: the curl commands of the README and the docs, against the example server', () => {
  for (const file of ['README.md', 'docs/http-server.md', 'docs/calls.md']) {
    it(`${file}: each answers as shown`, async () => {
      await requireCurl();
      const commands = documentedCommands(file);
      expect(commands.length, 'curl commands found').to.be.at.least(4);
      const { server } = createExampleServer({
        registry: { onError: () => {} },
        tokens: demoTokens({}),
        log: () => {},
      });
      const url = await listen(server);
      const cwd = mkdtempSync(join(tmpdir(), 'lacquer-curl-docs-')); // where --output writes
      try {
        for (const { command, status, body } of commands) {
          const line = command
            .replaceAll('http://127.0.0.1:8080', url)
            .replace(/^curl /, `curl -sS -w '\\n%{http_code}' `);
          const { stdout } = await run('sh', ['-c', line], { cwd, encoding: 'utf8' });
          const answered = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
          if (status === undefined) expect(answered, command).to.be.within(200, 299);
          else expect(answered, command).to.equal(status);
          if (body !== undefined) expect(stdout.slice(0, stdout.lastIndexOf('\n')), command).to.equal(body);
        }
      } finally {
        await server.stop();
      }
    });
  }
});

describe('interop: curl against the example server', () => {
  const log: string[] = [];
  const { server } = createExampleServer({
    registry: { onError: () => {} },
    tokens: demoTokens({}),
    log: (line) => log.push(line),
  });
  let url = '';
  before(async () => {
    await requireCurl();
    url = await listen(server);
  });
  after(() => server.stop());

  beforeEach(() => {
    log.length = 0;
  });

  it('GET /api lists every endpoint', async () => {
    const reply = await curl(`${url}/api`);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body.toString()).endpoints).to.include.members([
      'GET /api/getAllUsers',
      'POST /api/getUserById',
      'POST /api/createUser',
      'DELETE /api/deleteUser',
      'GET /api/books',
      'POST /api/books',
      'GET /api/books/search',
      'GET /api/books/:id',
      'PUT /api/books/:id',
      'DELETE /api/books/:id',
    ]);
  });

  it('GET /api/getAllUsers', async () => {
    const reply = await curl(...DEMO, `${url}/api/getAllUsers`);
    expect(reply.status).to.equal(200);
    expect(reply.headers['content-type']).to.equal('application/json');
    expect(reply.headers.vary).to.equal('Accept');
    expect(reply.body.toString()).to.equal(
      '[{"id":1,"name":"Ada","weight":61.5},{"id":2,"name":"Linus","weight":80.2}]',
    );
  });

  it('POST /api/createUser with a JSON body', async () => {
    const reply = await curl(
      ...DEMO,
      '-X',
      'POST',
      ...JSON_BODY,
      '{"id": 0, "name": "Grace", "weight": 55.25}',
      `${url}/api/createUser`,
    );
    expect(reply.status).to.equal(200);
    expect(reply.body.toString()).to.equal('{"id":3,"name":"Grace","weight":55.25}');
    const byId = await curl(...DEMO, ...JSON_BODY, '3', `${url}/api/getUserById`);
    expect(byId.body.toString()).to.equal('{"id":3,"name":"Grace","weight":55.25}');
  });

  it('GET /api/books/search takes the query string, with defaults for absent keys', async () => {
    const reply = await curl(`${url}/api/books/search?query=programming`);
    const result = JSON.parse(reply.body.toString());
    expect(result.total_count).to.equal(2);
    expect(result.has_more).to.equal(false);
    const limited = await curl(
      '-G',
      '--data-urlencode',
      'query=Programming Pearls',
      '--data-urlencode',
      'limit=1',
      `${url}/api/books/search`,
    );
    expect(JSON.parse(limited.body.toString())).to.deep.include({ total_count: 1, has_more: false });
    const unknown = await curl(`${url}/api/books/search?query=x&sort=year`);
    expect(unknown.status).to.equal(400);
    expect(JSON.parse(unknown.body.toString())).to.include({ code: 'unknown_key', path: '/sort' });
  });

  it('GET /api/books/3, and 400 with the parameter as path for /api/books/x', async () => {
    const reply = await curl(`${url}/api/books/3`);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body.toString())).to.include({ id: 3, title: 'Programming Pearls' });
    const bad = await curl(`${url}/api/books/x`);
    expect(bad.status).to.equal(400);
    expect(JSON.parse(bad.body.toString())).to.include({ code: 'type_mismatch', path: '/id' });
  });

  it('PUT /api/books/3 with the update as the body', async () => {
    const reply = await curl(
      ...DEMO,
      '-X',
      'PUT',
      ...JSON_BODY,
      '{"update": {"title": "More Programming Pearls", "author": "Bentley"}}',
      `${url}/api/books/3`,
    );
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body.toString())).to.include({ id: 3, title: 'More Programming Pearls', year: 1986 });
  });

  it('DELETE /api/books/2 answers 204 without a body', async () => {
    const reply = await curl(...DEMO, '-X', 'DELETE', `${url}/api/books/2`);
    expect(reply.status).to.equal(204);
    expect(reply.body.length).to.equal(0);
    const again = await curl(...DEMO, '-X', 'DELETE', `${url}/api/books/2`);
    expect(again.status).to.equal(404);
    expect(again.headers['content-type']).to.equal('application/problem+json');
  });

  for (const [path, auth] of [
    ['/api/getAllUsers', DEMO],
    ['/api/books/1', []],
  ] as const) {
    it(`HEAD ${path}`, async () => {
      const get = await curl(...auth, `${url}${path}`);
      const reply = await curl(...auth, '-I', `${url}${path}`);
      expect(reply.status).to.equal(200);
      expect(reply.headers['content-length']).to.equal(String(get.body.length));
      expect(reply.body.length).to.equal(0);
    });
  }

  for (const expectHeader of [[], ['-H', 'Expect:']]) {
    it(`a 2 MB body answers 413 ${expectHeader.length ? 'without' : 'with'} Expect: 100-continue`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'lacquer-curl-')), 'big.json');
      writeFileSync(file, `"${'x'.repeat(2 * 1024 * 1024)}"`);
      const reply = await curl(
        ...DEMO,
        ...expectHeader,
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        `@${file}`,
        `${url}/api/createUser`,
      );
      expect(reply.status).to.equal(413);
      expect(reply.headers['content-type']).to.equal('application/problem+json');
      expect(JSON.parse(reply.body.toString())).to.include({ status: 413, title: 'Content Too Large' });
    });
  }

  it('answers CBOR to Accept: application/cbor, and 400 with code and path for a bad body', async () => {
    const cbor = await curl('-H', 'Accept: application/cbor', `${url}/api/books`);
    expect(cbor.headers['content-type']).to.equal('application/cbor');
    expect((cborDecode(cbor.body) as unknown[]).length).to.be.greaterThan(0);
    const bad = await curl(...DEMO, ...JSON_BODY, '{"id": 1, "name": 7, "weight": 1}', `${url}/api/createUser`);
    expect(bad.status).to.equal(400);
    expect(JSON.parse(bad.body.toString())).to.include({ code: 'type_mismatch', path: '/name' });
  });

  it('404 and 405 with Allow', async () => {
    expect((await curl(`${url}/api/nothing`)).status).to.equal(404);
    const reply = await curl('-X', 'DELETE', `${url}/api/getAllUsers`);
    expect(reply.status).to.equal(405);
    expect(reply.headers.allow).to.equal('GET, HEAD');
    const routed = await curl('-X', 'PATCH', `${url}/api/books/1`);
    expect(routed.status).to.equal(405);
    expect(routed.headers.allow).to.equal('GET, HEAD, PUT, DELETE');
  });

  describe('bearer tokens, and a log line per call', () => {
    const GENERATED_ID = /^[0-9a-f]{12}-[0-9a-z]{1,11}$/;
    const problem = (reply: CurlReply) => JSON.parse(reply.body.toString());

    it('answers 401 with a Bearer challenge to a call without a token', async () => {
      const reply = await curl('-H', 'X-Request-Id: no-token-1', `${url}/api/getAllUsers`);
      expect(reply.status).to.equal(401);
      expect(reply.headers['www-authenticate']).to.equal('Bearer realm="api"');
      expect(reply.headers['content-type']).to.equal('application/problem+json');
      expect(problem(reply)).to.deep.equal({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'this call needs credentials',
      });
      expect(reply.headers['x-request-id']).to.equal('no-token-1');
      expect(log).to.have.length(1);
      expect(log[0]).to.match(/^GET \/api\/getAllUsers 401 \d+\.\d ms req=no-token-1$/);
    });

    it('answers 401 with error="invalid_token" to a token it does not know', async () => {
      const reply = await curl('-H', 'Authorization: Bearer not-a-known-token', `${url}/api/getAllUsers`);
      expect(reply.status).to.equal(401);
      expect(reply.headers['www-authenticate']).to.equal('Bearer realm="api", error="invalid_token"');
      expect(problem(reply)).to.include({ status: 401, detail: 'the credentials were refused' });
      expect(reply.headers['x-request-id']).to.match(GENERATED_ID);
      expect(log).to.have.length(1);
      expect(log[0]).to.match(
        new RegExp(`^GET /api/getAllUsers 401 \\d+\\.\\d ms req=${reply.headers['x-request-id']}$`),
      );
    });

    it('lets the read-only token read', async () => {
      const reply = await curl(...READ_ONLY, `${url}/api/getAllUsers`);
      expect(reply.status).to.equal(200);
      expect(JSON.parse(reply.body.toString())).to.be.an('array').that.is.not.empty;
      expect(log).to.have.length(1);
      expect(log[0]).to.match(/^GET \/api\/getAllUsers 200 \d+\.\d ms req=\S+ caller=read-only$/);
    });

    it('answers 403 to the read-only token on POST /api/books, and stores nothing', async () => {
      const reply = await curl(...READ_ONLY, ...JSON_BODY, REFACTORING, `${url}/api/books`);
      expect(reply.status).to.equal(403);
      expect(reply.headers['www-authenticate']).to.equal(undefined);
      expect(reply.headers['content-type']).to.equal('application/problem+json');
      expect(problem(reply)).to.deep.equal({
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'the read-only token may read but not write',
      });
      expect(reply.headers.location).to.equal(undefined);
      expect(log).to.have.length(1);
      expect(log[0]).to.match(
        new RegExp(`^POST /api/books 403 \\d+\\.\\d ms req=${reply.headers['x-request-id']} caller=read-only$`),
      );
      expect((await curl(`${url}/api/books/4`)).status).to.equal(404);
    });

    it('answers 201 with a Location that serves the new book to the demo token', async () => {
      const reply = await curl(...DEMO, ...JSON_BODY, REFACTORING, `${url}/api/books`);
      expect(reply.status).to.equal(201);
      expect(reply.headers.location).to.equal('/api/books/4');
      expect(reply.headers['content-type']).to.equal('application/json');
      const created = '{"id":4,"title":"Refactoring","author":"Fowler","isbn":"0201485672","year":1999}';
      expect(reply.body.toString()).to.equal(created);
      expect(reply.headers['x-request-id']).to.match(GENERATED_ID);
      expect(log).to.have.length(1);
      expect(log[0]).to.match(
        new RegExp(`^POST /api/books 201 \\d+\\.\\d ms req=${reply.headers['x-request-id']} caller=demo$`),
      );
      const there = await curl(`${url}${reply.headers.location}`);
      expect(there.status).to.equal(200);
      expect(there.body.toString()).to.equal(created);
      const again = await curl(...DEMO, ...JSON_BODY, REFACTORING, `${url}/api/books`);
      expect(again.status).to.equal(409);
    });

    it('serves the public list of books without a token', async () => {
      const reply = await curl(`${url}/api/books`);
      expect(reply.status).to.equal(200);
      expect(reply.headers['www-authenticate']).to.equal(undefined);
      expect(JSON.parse(reply.body.toString()).map((b: { id: number }) => b.id)).to.include(1);
      expect(log).to.have.length(1);
      expect(log[0]).to.match(/^GET \/api\/books 200 \d+\.\d ms req=\S+$/);
    });
  });
});
