// curl --compressed against HttpServer: a client we did not write asks for a compressed answer and
// inflates it, and sends a gzip body with Content-Encoding. Run by `npm run test:interop`, not
// `npm test`: curl is a system package (Debian's slim images lack it). Required there, never skipped.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { Registry, meta, method, service, t } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { listen } from '../support/http-client.ts';
import { requireCurl, run } from './curl.ts';

const Row = t.object({ id: t.u32(), name: t.string(), tags: t.array(t.string()) }, { name: 'Row' });
type Row = { id: number; name: string; tags: string[] };
/** A hundred rows: some 6 KB of JSON, well above the 1 KiB below which nothing is compressed. */
const ROWS: Row[] = Array.from({ length: 100 }, (_, i) => ({
  id: i,
  name: `row number ${i}`,
  tags: ['alpha', 'beta', String(i % 7)],
}));

class Table {
  listRows(): Row[] {
    return ROWS;
  }
  sum(values: number[]): number {
    return values.reduce((a, b) => a + b, 0);
  }
}
meta(Table, service({ listRows: method([], t.array(Row)), sum: method([t.array(t.u32())], t.u32()) }));

describe('interop: curl --compressed against HttpServer', () => {
  const server = new HttpServer({ onError: () => {} }).mount(
    '/api',
    new Registry({ onError: () => {} }).on(new Table()).endpoints,
  );
  let url = '';
  before(async () => {
    await requireCurl();
    url = await listen(server);
  });
  after(() => server.stop());

  it('curl --compressed gets the same JSON, compressed on the wire', async () => {
    const { stdout: plain } = await run('curl', ['-sS', `${url}/api/listRows`]);
    const { stdout: compressed } = await run('curl', ['-sS', '--compressed', `${url}/api/listRows`]);
    expect(compressed).to.equal(plain);
    expect(JSON.parse(compressed)).to.deep.equal(ROWS);
    const { stdout: head } = await run('curl', [
      '-sS',
      '--compressed',
      '-o',
      '/dev/null',
      '-D',
      '-',
      `${url}/api/listRows`,
    ]);
    expect(head).to.match(/^content-encoding: (br|gzip|zstd)\r$/im);
    expect(head).to.match(/^vary: Accept, Accept-Encoding\r$/im);
    const length = Number(/^content-length: (\d+)\r$/im.exec(head)![1]);
    expect(length).to.be.below(plain.length / 4);
  });

  it('curl posting a gzip body with Content-Encoding: gzip', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lacquer-gzip-')), 'values.json.gz');
    writeFileSync(file, zlib.gzipSync(JSON.stringify(Array.from({ length: 1000 }, (_, i) => i))));
    const { stdout } = await run('curl', [
      '-sS',
      '-H',
      'Content-Type: application/json',
      '-H',
      'Content-Encoding: gzip',
      '--data-binary',
      `@${file}`,
      `${url}/api/sum`,
    ]);
    expect(stdout).to.equal(String((999 * 1000) / 2));
  });
});
