// What a method can see through its call: exactly the members of `Call`, of its own request only.
// A logger printing the call (util.inspect, JSON.stringify) or code walking its properties must not
// reach another request in flight, nor the caller's own credentials.
import { expect } from 'chai';
import { inspect } from 'node:util';
import { Registry, meta, method, service, t, type Call } from '../../index.ts';
import { deferred } from '../support/call-services.ts';
import type { Served } from '../support/fetch-server.ts';
import { send } from '../support/http-client.ts';
import { TRANSPORTS } from './both-transports.ts';

const OTHERS_SECRET = 'Bearer other-users-secret-7f3a';
const OWN_SECRET = 'Bearer own-secret-91bc';
const QUERY_SECRET = 'query-secret-55d0';

/** Every member `Call` declares. */
const CALL_MEMBERS = new Set([
  'service',
  'method',
  'verb',
  'path',
  'prefix',
  'headers',
  'query',
  'signal',
  'requestId',
  'platform',
  'ip',
  'lastEventId',
  'args',
  'get',
  'has',
  'set',
  'status',
  'header',
]);

/** Every string reachable from `root` through own properties (names and symbols), `platform` left out. */
function reachableStrings(root: object): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') return void out.push(value);
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Map) for (const [k, v] of value) visit(k), visit(v);
    if (value instanceof Set) for (const v of value) visit(v);
    for (const key of Reflect.ownKeys(value)) {
      if (value === root && key === 'platform') continue;
      if (typeof key === 'string') out.push(key);
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) visit(descriptor.value);
    }
  };
  visit(root);
  return out;
}

interface Seen {
  inspected: string;
  deep: string;
  json: string;
  walked: string[];
  ownNames: (string | symbol)[];
  keys: string[];
  authorization: string | null;
  lastEventId: string | undefined;
  aborted: boolean;
}

class Watched {
  readonly entered = [deferred<void>(), deferred<void>()];
  readonly release = deferred<void>();
  seen: Seen | undefined;
  #holding = 0;

  async hold(call: Call): Promise<string> {
    this.entered[this.#holding++]?.resolve();
    await this.release.promise;
    return call.requestId;
  }

  look(note: string, call: Call): string {
    this.seen = {
      inspected: inspect(call),
      deep: inspect(call, { depth: Infinity, showHidden: true, getters: false }),
      json: JSON.stringify(call),
      walked: reachableStrings(call),
      ownNames: Reflect.ownKeys(call),
      keys: Object.keys(call),
      authorization: call.headers.get('authorization'),
      lastEventId: call.lastEventId,
      aborted: call.signal.aborted,
    };
    return note;
  }
}

meta(Watched, service({ hold: method([], t.string()), look: method([t.string()], t.string()) }));

for (const transport of TRANSPORTS) {
  describe(`transports: a call shows its own request only (${transport.kind})`, () => {
    let watched: Watched;
    let served: Served;
    before(async () => {
      watched = new Watched();
      served = await transport.serve('/api', new Registry().on(watched).endpoints);
    });
    after(() => served.stop());

    it('does not reach another request in flight, nor print credentials, through inspect, JSON or its properties', async () => {
      const holding = [1, 2].map(() =>
        send(`${served.url}/api/hold`, { method: 'POST', headers: { authorization: OTHERS_SECRET } }),
      );
      await Promise.all(watched.entered.map((d) => d.promise));
      const reply = await send(`${served.url}/api/look?api_key=${QUERY_SECRET}`, {
        method: 'POST',
        body: '"a note"',
        headers: {
          'content-type': 'application/json',
          authorization: OWN_SECRET,
          'x-request-id': 'look-1',
          'last-event-id': 'evt-9',
        },
      });
      watched.release.resolve();
      expect((await Promise.all(holding)).map((r) => r.status)).to.deep.equal([200, 200]);
      expect(reply.status, reply.text).to.equal(200);
      const seen = watched.seen!;
      for (const [what, text] of [
        ['inspect', seen.inspected],
        ['inspect at any depth', seen.deep],
        ['JSON.stringify', seen.json],
      ] as const) {
        expect(text, what).not.to.include('other-users-secret');
        expect(text, what).not.to.include('own-secret');
        expect(text, what).not.to.include(QUERY_SECRET);
      }
      expect(seen.walked.filter((s) => s.includes('other-users-secret'))).to.deep.equal([]);
      for (const name of seen.ownNames)
        expect(CALL_MEMBERS.has(String(name)), `own property ${String(name)}`).to.equal(true);
      for (const name of seen.keys) expect(CALL_MEMBERS.has(name), `key ${name}`).to.equal(true);
      // The method itself still reads its headers and its signal.
      expect(seen.authorization).to.equal(OWN_SECRET);
      expect(seen.lastEventId).to.equal('evt-9');
      expect(seen.aborted).to.equal(false);
    });

    it('shows the public view: service, method, verb, path, prefix, request id, address and arguments (no header value, Last-Event-ID neither)', () => {
      const view = JSON.parse(watched.seen!.json) as Record<string, unknown>;
      expect(view).to.deep.equal({
        service: 'Watched',
        method: 'look',
        verb: 'POST',
        path: '/look',
        prefix: '/api',
        requestId: 'look-1',
        args: ['a note'],
        // The fetch handler knows the address only through its `ip` option.
        ...(transport.kind === 'HttpServer' ? { ip: '127.0.0.1' } : {}),
      });
      expect(watched.seen!.inspected).to.match(/^Call \{/);
      for (const part of [
        "service: 'Watched'",
        "method: 'look'",
        "verb: 'POST'",
        "path: '/look'",
        "prefix: '/api'",
        "requestId: 'look-1'",
        "'a note'",
      ]) {
        expect(watched.seen!.inspected).to.include(part);
      }
    });
  });
}
