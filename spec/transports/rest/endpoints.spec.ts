import { expect } from 'chai';
import { Registry } from '../../../index.ts';
import { FaultyService, VerbService } from '../../support/services.ts';
import { answerText } from '../../support/answer-body.ts';

/** A transport-neutral request, with Web `Headers` as a Worker or Deno would hand them over. */
function request(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return {
    method,
    path,
    headers: new Headers(headers),
    body: body === undefined ? undefined : new TextEncoder().encode(body),
  };
}

describe('transports/rest: Endpoints (no HTTP server)', () => {
  const registry = new Registry({ maxBodyBytes: 64, onError: () => {} }).on(new VerbService()).on(new FaultyService());
  const { endpoints } = registry;
  const text = answerText;

  it('lists paths relative to the mount prefix, each with its verbs', () => {
    expect(endpoints.routes.get('/getItems')?.has('GET')).to.equal(true);
    expect([...endpoints.routes.get('/deleteItem')!.keys()]).to.deep.equal(['DELETE']);
  });

  it('handles a request with Web Headers and a Uint8Array body', async () => {
    const answer = await endpoints.handle(request('POST', '/add', { 'content-type': 'application/json' }, '[1, 2]'));
    expect(answer.status).to.equal(200);
    expect(answer.headers).to.include({ 'content-type': 'application/json', vary: 'Accept' });
    expect(answer.headers['x-request-id']).to.match(/^[0-9a-f]{12}-[0-9a-z]{1,11}$/);
    expect(text(answer.body)).to.equal('"add 3"');
  });

  it('answers HEAD as GET without a body', async () => {
    const answer = await endpoints.handle(request('HEAD', '/getItems'));
    expect(answer.status).to.equal(200);
    expect(answer.body).to.equal(undefined);
  });

  it('answers 404 and 405 with Allow as problem documents', async () => {
    const missing = await endpoints.handle(request('GET', '/nope'));
    expect(missing.status).to.equal(404);
    expect(missing.headers['content-type']).to.equal('application/problem+json');
    const wrong = await endpoints.handle(request('POST', '/getItems'));
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.allow).to.equal('GET, HEAD');
  });

  it('checks maxBodyBytes itself, for transports that do not', async () => {
    const answer = await endpoints.handle(
      request('POST', '/echo', {}, JSON.stringify({ id: 1, name: 'x'.repeat(80), weight: 1 })),
    );
    expect(answer.status).to.equal(413);
    expect(endpoints.maxBodyBytes).to.equal(64);
  });

  it('handlers never reject: a failing method is a 500 answer', async () => {
    const answer = await endpoints.routes.get('/crash')!.get('POST')!(request('POST', '/crash'));
    expect(answer.status).to.equal(500);
    expect(JSON.parse(text(answer.body))).to.deep.equal({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'The server failed to handle the request.',
      requestId: answer.headers['x-request-id'],
    });
  });

  it('writes JSON indented with prettify', async () => {
    const pretty = new Registry({ prettify: true }).on(new FaultyService()).endpoints;
    const answer = await pretty.handle(request('POST', '/echo', {}, '{"id": 1, "name": "a", "weight": 1}'));
    expect(text(answer.body)).to.equal('{\n  "id": 1,\n  "name": "a",\n  "weight": 1\n}');
  });
});
