// An MCP registry's tool calls count against rate limits as REST calls do: a call over its limit
// is the HTTP 429 with Retry-After, which an HTTP client backs off from, not a tool result.
import { expect } from 'chai';
import { MCP, Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

class Clock {
  now(): number {
    return 1;
  }
}
meta(Clock, service({ now: method([], t.u32()) }));

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('transports: MCP tool calls and rate limits', () => {
  it('answers a tools/call over the limit with the HTTP 429 and Retry-After; tools/list is not counted', async () => {
    const handler = toFetchHandler(
      '/mcp',
      new Registry({ rateLimit: { limit: 2, windowMs: 60_000 } }, MCP).on(new Clock()).endpoints,
    );
    const post = (body: object) =>
      handler(
        new Request('http://x/mcp', {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        }),
      );
    expect((await post({ id: 1, method: 'tools/list' })).status).to.equal(200);
    const call = () => post({ id: 2, method: 'tools/call', params: { name: 'now', arguments: {} } });
    expect((await call()).status).to.equal(200);
    expect((await call()).status).to.equal(200);
    const limited = await call();
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await limited.json()).status).to.equal(429);
  });
});
