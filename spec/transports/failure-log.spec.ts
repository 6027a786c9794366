// What the default onError writes: one line for an expected refusal (a handler timeout, a call
// abandoned on shutdown), nothing for a client gone, the stack only for a real fault (a method's thrown
// error), so that a flood of timeouts writes a line per request, not a stack each.
import { expect } from 'chai';
import { request } from 'node:http';
import { format } from 'node:util';
import { Registry, meta, method, service, t, type Call } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { send } from '../support/http-client.ts';
import { until } from '../support/until.ts';
import { TRANSPORTS } from './both-transports.ts';

/** Told when a method of Slow starts. */
let onStarted: (() => void) | undefined;
/** Resolves once the next call of a method of Slow has started. */
const nextStart = () => new Promise<void>((resolve) => (onStarted = resolve));

class Slow {
  /** Calls of `untilGone` that have failed. */
  gone = 0;
  never(): Promise<string> {
    onStarted?.();
    return new Promise(() => {});
  }
  /** Fails with the signal's reason once the client has gone, as a method passing its signal on does. */
  untilGone(call: Call): Promise<string> {
    onStarted?.();
    return new Promise((_, reject) =>
      call.signal.addEventListener(
        'abort',
        () => {
          this.gone++;
          reject(call.signal.reason);
        },
        { once: true },
      ),
    );
  }
  crash(): string {
    throw new Error('the disk is on fire');
  }
}
meta(
  Slow,
  service({ never: method([], t.string()), untilGone: method([], t.string()), crash: method([], t.string()) }),
);

/** Every console.error line written while `run` runs, one entry per call, formatted as Node prints it. */
async function logged(run: (lines: readonly string[]) => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void lines.push(format(...args));
  try {
    await run(lines);
  } finally {
    console.error = original;
  }
  return lines;
}

/** Sends a request to `url` and drops the connection once the method has started. */
async function abandon(url: string, id: string): Promise<void> {
  const pending = request(url, { method: 'POST', agent: false, headers: { 'x-request-id': id } });
  pending.on('error', () => {});
  const started = nextStart();
  pending.end();
  await started;
  pending.destroy();
}

describe('transports: what the default onError logs', () => {
  it('HttpServer: one line per handler timeout, for a flood of them', async () => {
    const server = new HttpServer({ handlerTimeoutMs: 100 })
      .mount('/api', new Registry().on(new Slow()).endpoints)
      .bind(0);
    await server.start();
    const lines = await logged(async () => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(`${server.url}/api/never`, { method: 'POST', headers: { 'x-request-id': `flood-${i}` } }),
        ),
      );
      expect(replies.map((r) => r.status)).to.deep.equal(Array(20).fill(503));
    }).finally(() => server.stop());
    expect(lines).to.have.length(20);
    for (const line of lines) {
      expect(line).not.to.include('\n');
      expect(line)
        .to.match(/flood-\d+/)
        .and.include('503')
        .and.include('timed out');
    }
  });

  it("HttpServer: one line each, from the server and the registry, when a timed-out method fails with its signal's reason", async () => {
    const server = new HttpServer({ handlerTimeoutMs: 100 })
      .mount('/api', new Registry().on(new Slow()).endpoints)
      .bind(0);
    await server.start();
    const lines = await logged(async (sofar) => {
      const reply = await send(`${server.url}/api/untilGone`, {
        method: 'POST',
        headers: { 'x-request-id': 'late-1' },
      });
      expect(reply.status).to.equal(503);
      await until(() => sofar.length >= 2);
    }).finally(() => server.stop());
    expect(lines).to.have.length(2);
    for (const line of lines) expect(line).to.include('late-1').and.not.include('\n');
  });

  it('HttpServer: one line for a call abandoned on shutdown', async () => {
    const server = new HttpServer({ drainTimeoutMs: 100 })
      .mount('/api', new Registry().on(new Slow()).endpoints)
      .bind(0);
    await server.start();
    const lines = await logged(async () => {
      const started = nextStart();
      const reply = send(`${server.url}/api/never`, { method: 'POST', headers: { 'x-request-id': 'shutdown-1' } });
      await started;
      await server.stop();
      expect((await reply).status).to.equal(503);
    });
    expect(lines).to.have.length(1);
    expect(lines[0]).not.to.include('\n');
    expect(lines[0]).to.include('shutdown-1').and.include('503');
  });

  for (const transport of TRANSPORTS) {
    it(`${transport.kind}: nothing when the client goes away and the method fails with the signal's reason`, async () => {
      const slow = new Slow();
      const served = await transport.serve('/api', new Registry().on(slow).endpoints);
      const lines = await logged(async () => {
        await abandon(`${served.url}/api/untilGone`, 'gone-1');
        await until(() => slow.gone > 0);
        // Nothing comes of it.
        await new Promise((r) => setTimeout(r, 50));
      }).finally(() => served.stop());
      expect(slow.gone).to.equal(1);
      expect(lines).to.deep.equal([]);
    });

    it(`${transport.kind}: the stack of a method's own error`, async () => {
      const served = await transport.serve('/api', new Registry().on(new Slow()).endpoints);
      const lines = await logged(async () => {
        expect(
          (await send(`${served.url}/api/crash`, { method: 'POST', headers: { 'x-request-id': 'crash-1' } })).status,
        ).to.equal(500);
      }).finally(() => served.stop());
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include('crash-1').and.include('the disk is on fire');
      expect(lines[0]).to.match(/\n\s+at /);
    });
  }
});
