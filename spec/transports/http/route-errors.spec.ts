// An HttpError thrown by a plain HttpServer route is answered as a service method's is: its status,
// its problem document and the headers it carries (Retry-After, WWW-Authenticate), but none that
// would corrupt the answer.
import { expect } from 'chai';
import { HttpError } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, send } from '../../support/http-client.ts';

describe('transports/http: HttpError from a route handler', () => {
  const reported: number[] = [];
  const server = new HttpServer({ onError: (_error, _request, status) => reported.push(status) })
    .get('/busy', () => {
      throw new HttpError(429, 'slow down', { headers: { 'Retry-After': '5' } });
    })
    .get('/private', async () => {
      throw new HttpError(401, 'who are you', {
        headers: { 'www-authenticate': 'Bearer realm="api"', 'set-cookie': 'a=1' },
      });
    })
    .get('/hostile', () => {
      throw new Proxy(
        {},
        {
          getPrototypeOf() {
            throw new Error('a trap threw');
          },
          get() {
            throw new Error('a trap threw');
          },
        },
      );
    })
    .get('/sneaky', () => {
      throw new HttpError(503, 'later', {
        headers: { 'content-type': 'text/html', 'x-request-id': 'forged', 'x-bad': 'a\r\nb', 'retry-after': '9' },
      });
    });
  let url = '';
  before(async () => (url = await listen(server)));
  after(() => server.stop());

  it('answers a 429 with its Retry-After', async () => {
    const reply = await send(`${url}/busy`);
    expect(reply.status).to.equal(429);
    expect(reply.headers['retry-after']).to.equal('5');
    expect(reply.json()).to.include({ status: 429, detail: 'slow down' });
  });

  it('answers a 401 from an async handler with its WWW-Authenticate', async () => {
    const reply = await send(`${url}/private`);
    expect(reply.status).to.equal(401);
    expect(reply.headers['www-authenticate']).to.equal('Bearer realm="api"');
    expect(reply.headers['set-cookie']).to.deep.equal(['a=1']);
  });

  it('answers a thrown Proxy whose traps throw 500 with the request id', async () => {
    const reply = await send(`${url}/hostile`, { headers: { 'x-request-id': 'hostile-1' } });
    expect(reply.status).to.equal(500);
    expect(reply.headers['x-request-id']).to.equal('hostile-1');
    expect(reply.json()).to.include({ status: 500, requestId: 'hostile-1' });
    expect(reply.text).not.to.include('a trap threw');
  });

  it('keeps its own content-type and x-request-id, and drops a value with CR LF', async () => {
    const reply = await send(`${url}/sneaky`, { headers: { 'x-request-id': 'mine' } });
    expect(reply.status).to.equal(503);
    expect(reply.headers['content-type']).to.equal('application/problem+json');
    expect(reply.headers['x-request-id']).to.equal('mine');
    expect(reply.headers).not.to.have.property('x-bad');
    expect(reply.headers['retry-after']).to.equal('9');
    expect(reply.json()).to.include({ status: 503, requestId: 'mine' });
    expect(reported).to.include(503);
  });
});
