// A request target in absolute form (`GET http://host/path`, as sent to proxies) is checked as the
// origin form is: a dot segment in any spelling is refused 400, never resolved, so a proxy that
// allows `/public/*` cannot be walked past to `/admin/*`. Sent on a raw socket: clients normalise.
import { expect } from 'chai';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { raw } from '../../support/http-client.ts';

class Admin {
  getSecrets(): string {
    return 'the admin secrets';
  }
}
meta(Admin, service({ getSecrets: method([], t.string()) }));

const DOTS = ['..', '.', '%2e%2e', '%2E.', '.%2e', '%2e', '%2E%2E'];

describe('transports/http: absolute-form targets', () => {
  const server = new HttpServer();
  let port = 0;
  before(async () => {
    server.mount('/admin', new Registry().on(new Admin()).endpoints).bind(0);
    await server.start();
    port = Number(new URL(server.url).port);
  });
  after(() => server.stop());

  /** The status line and body of `target`'s answer. */
  const ask = async (target: string) => {
    const text = await raw(port, `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    return { status: Number(text.split(' ')[1]), text };
  };

  it('serves an absolute-form target without dot segments as its path', async () => {
    const answer = await ask(`http://127.0.0.1:${port}/admin/getSecrets`);
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.text).to.include('the admin secrets');
  });

  for (const dots of DOTS) {
    for (const [where, path] of [
      ['in the middle', `/public/${dots}/admin/getSecrets`],
      ['after the method', `/admin/getSecrets/${dots}`],
      ['in the middle, before a query', `/public/${dots}/admin/getSecrets?x=1`],
    ] as const) {
      it(`refuses the dot segment ${dots} ${where} 400, in absolute form as in origin form`, async () => {
        for (const target of [path, `http://127.0.0.1:${port}${path}`, `HTTP://x${path}`]) {
          const answer = await ask(target);
          expect(answer.status, `${target}: ${answer.text}`).to.equal(400);
          expect(answer.text).to.include('dot segment');
          expect(answer.text).not.to.include('the admin secrets');
        }
      });
    }
  }

  it('refuses an authority holding a path separator or a dot walk', async () => {
    for (const target of [`http://x\\..\\admin/getSecrets`, 'http://x@/admin/getSecrets/..']) {
      const answer = await ask(target);
      expect(answer.status, `${target}: ${answer.text}`).to.equal(400);
      expect(answer.text).not.to.include('the admin secrets');
    }
  });
});
