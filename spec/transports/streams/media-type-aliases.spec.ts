// The names users send for JSON Lines: `application/x-ndjson` is read as `application/jsonl` in a
// request stream's Content-Type and in a stream answer's Accept, and written only when asked for by
// that name; a stream method's 406 names the stream types it can write, not the plain ones.
import { expect } from 'chai';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

const Row = t.object({ n: t.u32() }, { name: 'Row' });

class Rows {
  async countRows(rows: AsyncIterable<{ n: number }>): Promise<number> {
    let sum = 0;
    for await (const r of rows) sum += r.n;
    return sum;
  }
  *listRows() {
    yield { n: 1 };
    yield { n: 2 };
  }
}
meta(Rows, service({ countRows: method([t.stream(Row)], t.u32()), listRows: method([], t.stream(Row)) }));

const handler = toFetchHandler('/api', new Registry({ onError: () => {} }).on(new Rows()).endpoints);
const call = (path: string, init: RequestInit) => handler(new Request(`http://rows.test/api${path}`, init));

describe('streams: application/x-ndjson, the other name of JSON Lines', () => {
  it('reads a request stream sent as application/x-ndjson (parameters allowed) as JSON Lines', async () => {
    for (const contentType of ['application/x-ndjson', 'Application/X-NDJSON; charset=utf-8']) {
      const answer = await call('/countRows', {
        method: 'POST',
        headers: { 'content-type': contentType, accept: 'application/json' },
        body: '{"n":1}\n{"n":2}\n',
      });
      expect([answer.status, await answer.text()], contentType).to.deep.equal([200, '3']);
    }
  });

  it('answers a stream as application/x-ndjson when Accept names it, and as application/jsonl otherwise', async () => {
    const named = await call('/listRows', { headers: { accept: 'application/x-ndjson' } });
    expect([named.status, named.headers.get('content-type'), await named.text()]).to.deep.equal([
      200,
      'application/x-ndjson',
      '{"n":1}\n{"n":2}\n\n\n',
    ]);
    for (const accept of [
      '*/*',
      'application/*',
      'application/jsonl, application/x-ndjson',
      'application/x-ndjson;q=0.5, application/jsonl',
    ]) {
      const answer = await call('/listRows', { headers: { accept } });
      expect(answer.headers.get('content-type'), accept).to.equal('application/jsonl');
      await answer.body?.cancel();
    }
  });

  it('lists the stream types in the 406 of a stream method', async () => {
    const answer = await call('/listRows', { headers: { accept: 'application/json' } });
    expect(answer.status).to.equal(406);
    const detail = ((await answer.json()) as { detail: string }).detail;
    expect(detail).to.match(/application\/jsonl.*application\/msgpack-seq.*application\/cbor-seq.*text\/event-stream/);
    expect(detail).not.to.match(
      /application\/json[,;]|application\/json$|application\/msgpack[,;]|application\/msgpack$/,
    );
  });

  it('still refuses application/json-seq (RFC 7464 records, not lines) with a 415 naming the sequence types', async () => {
    const answer = await call('/countRows', {
      method: 'POST',
      headers: { 'content-type': 'application/json-seq', accept: 'application/json' },
      body: '\u001e{"n":1}\n',
    });
    expect(answer.status).to.equal(415);
    expect(answer.headers.get('accept-post')).to.match(/application\/jsonl/);
  });
});
