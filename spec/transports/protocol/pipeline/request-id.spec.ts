import { expect } from 'chai';
import fc from 'fast-check';
import {
  clientAddress,
  meta,
  method,
  Registry,
  requestIdFor,
  service,
  t,
  type Call,
  type EndpointResponse,
} from '../../../../index.ts';
import { answerText } from '../../../support/answer-body.ts';

const GENERATED_ID = /^[0-9a-f]{12}-[0-9a-z]{1,11}$/;
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

/** One visible ASCII character, 0x21-0x7e. */
const visible = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));

class Tracer {
  getTrace(call: Call): string {
    return call.requestId;
  }
  crash(): string {
    throw new Error('boom');
  }
}
meta(Tracer, service({ getTrace: method([], t.string()), crash: method([], t.string()) }));

const text = answerText;

describe('transports/rest request ids and client addresses', () => {
  describe('requestIdFor', () => {
    it('keeps an id of 1 to 128 visible ASCII characters as sent', () => {
      for (const id of ['a', 'req-1', '0123456789abcdef', '!~', 'x'.repeat(128), '{"json":true}', 'a,b;c=d']) {
        expect(requestIdFor(id), id).to.equal(id);
      }
    });

    it('property: keeps every string of 1-128 characters from 0x21 to 0x7e', () => {
      fc.assert(
        fc.property(fc.string({ unit: visible, minLength: 1, maxLength: 128 }), (id) => {
          expect(requestIdFor(id)).to.equal(id);
        }),
        { numRuns: 1000 },
      );
    });

    const refused: [string, string | null][] = [
      ['no header', null],
      ['an empty one', ''],
      ['129 characters', 'x'.repeat(129)],
      ['a space', 'req 1'],
      ['a leading space', ' req'],
      ['a tab', 'req\t1'],
      ['CR/LF', 'req\r\nx-injected: 1'],
      ['a lone LF', 'req\n'],
      ['NUL', 'req\0'],
      ['DEL', 'req\x7f'],
      ['a control character', '\x01req'],
      ['Latin-1', 'réq'],
      ['an emoji', 'req😀'],
      ['a lone surrogate', 'req\ud800'],
    ];
    for (const [label, sent] of refused) {
      it(`makes a new id for ${label}`, () => {
        expect(requestIdFor(sent)).to.match(GENERATED_ID);
      });
    }

    it('property: any string that is not 1-128 visible ASCII characters gets a fresh generated id', () => {
      const bad = fc.constantFrom(
        ' ',
        '\t',
        '\r',
        '\n',
        '\0',
        '\x7f',
        '\x1f',
        '\x80',
        '\u00a0',
        'é',
        '\u2028',
        '\ufeff',
        '\ud800',
        '😀',
      );
      const candidates = fc
        .oneof(
          fc.string({ unit: 'binary', maxLength: 140 }),
          fc.string({ unit: visible, minLength: 129, maxLength: 400 }),
          fc
            .tuple(fc.string({ unit: visible, maxLength: 64 }), bad, fc.string({ unit: visible, maxLength: 64 }))
            .map(([a, b, c]) => a + b + c),
        )
        .filter((s) => !ACCEPTABLE.test(s));
      const seen = new Set<string>();
      fc.assert(
        fc.property(candidates, (sent) => {
          const id = requestIdFor(sent);
          expect(id).to.match(GENERATED_ID);
          expect(seen.has(id), 'a fresh id every time').to.equal(false);
          seen.add(id);
        }),
        { numRuns: 1000 },
      );
    });

    it('generated ids share their process prefix and count up by one, id after id', () => {
      const ids = Array.from({ length: 100 }, () => requestIdFor(null));
      for (const id of ids) expect(id).to.match(GENERATED_ID);
      const [prefix] = ids[0]!.split('-');
      const counters = ids.map((id) => {
        const [own, counter] = id.split('-');
        expect(own).to.equal(prefix);
        return parseInt(counter!, 36);
      });
      for (let i = 1; i < counters.length; i++) expect(counters[i]).to.equal(counters[i - 1]! + 1);
    });

    it('two generated ids differ', () => {
      const a = requestIdFor(null);
      const b = requestIdFor(null);
      expect(a).to.match(GENERATED_ID);
      expect(b).to.match(GENERATED_ID);
      expect(a).not.to.equal(b);
    });
  });

  describe('x-request-id on endpoint answers', () => {
    const tracer = new Tracer();
    const endpoints = new Registry({ onError: () => {} }).on(tracer).endpoints;
    const handle = (method: string, path: string, headers: Record<string, string> = {}) =>
      endpoints.handle({ method, path, headers: new Headers(headers), body: undefined });

    it('echoes an acceptable id, and the call has the same', async () => {
      const answer = await handle('GET', '/getTrace', { 'x-request-id': 'abc-123' });
      expect(answer.headers['x-request-id']).to.equal('abc-123');
      expect(text(answer.body)).to.equal('"abc-123"');
    });

    it('replaces an unacceptable id with a generated id, the same in the answer and the call', async () => {
      const answer = await handle('GET', '/getTrace', { 'x-request-id': 'has space' });
      const id = answer.headers['x-request-id'] as string;
      expect(id).to.match(GENERATED_ID);
      expect(text(answer.body)).to.equal(JSON.stringify(id));
      const none = await handle('GET', '/getTrace');
      expect(none.headers['x-request-id']).to.match(GENERATED_ID);
      expect(none.headers['x-request-id']).not.to.equal(id);
    });

    it("a transport's own id wins over the header", async () => {
      const answer = await endpoints.handle({
        method: 'GET',
        path: '/getTrace',
        headers: new Headers({ 'x-request-id': 'from-header' }),
        body: undefined,
        requestId: 'from-transport',
      });
      expect(answer.headers['x-request-id']).to.equal('from-transport');
      expect(text(answer.body)).to.equal('"from-transport"');
    });

    it('is on routing answers too: 404 and 405', async () => {
      for (const [method, path, status] of [
        ['GET', '/missing', 404],
        ['DELETE', '/getTrace', 405],
      ] as const) {
        const echoed = await handle(method, path, { 'x-request-id': 'r-9' });
        expect(echoed.status).to.equal(status);
        expect(echoed.headers['x-request-id']).to.equal('r-9');
        const generated = await handle(method, path, { 'x-request-id': 'r\u00e9' });
        expect(generated.headers['x-request-id']).to.match(GENERATED_ID);
      }
    });

    it('a 500 problem document carries the same id as requestId', async () => {
      for (const headers of [{ 'x-request-id': 'crash-1' }, {}]) {
        const answer: EndpointResponse = await handle('POST', '/crash', headers);
        expect(answer.status).to.equal(500);
        const doc = JSON.parse(text(answer.body)) as Record<string, unknown>;
        expect(doc.requestId).to.equal(answer.headers['x-request-id']);
      }
    });
  });

  describe('clientAddress', () => {
    const chain = '198.51.100.7, 10.0.0.1, 10.0.0.2';
    const peer = '10.0.0.3';

    it('with trust false, is the peer whatever X-Forwarded-For says', () => {
      expect(clientAddress(peer, chain, false)).to.equal(peer);
      expect(clientAddress(peer, null, false)).to.equal(peer);
      expect(clientAddress('::1', '1.2.3.4', false)).to.equal('::1');
    });

    it('without X-Forwarded-For, is the peer whatever the trust', () => {
      expect(clientAddress(peer, null, true)).to.equal(peer);
      expect(clientAddress(peer, null, 2)).to.equal(peer);
      expect(clientAddress(peer, null, () => true)).to.equal(peer);
    });

    it('with trust true, is the leftmost address', () => {
      expect(clientAddress(peer, chain, true)).to.equal('198.51.100.7');
      expect(clientAddress(peer, '203.0.113.1', true)).to.equal('203.0.113.1');
      expect(clientAddress(peer, ' 203.0.113.1 ,10.0.0.1 ', true)).to.equal('203.0.113.1');
    });

    it('with a number n, believes the n nearest hops', () => {
      expect(clientAddress(peer, chain, 0)).to.equal(peer);
      expect(clientAddress(peer, chain, 1)).to.equal('10.0.0.2');
      expect(clientAddress(peer, chain, 2)).to.equal('10.0.0.1');
      expect(clientAddress(peer, chain, 3)).to.equal('198.51.100.7');
      expect(clientAddress(peer, chain, 4)).to.equal('198.51.100.7');
      expect(clientAddress(peer, chain, 100)).to.equal('198.51.100.7');
    });

    it('with a function, walks left while the address reached is a trusted proxy', () => {
      const asked: string[] = [];
      const internal = (address: string) => (asked.push(address), address.startsWith('10.'));
      expect(clientAddress(peer, chain, internal)).to.equal('198.51.100.7');
      expect(asked).to.deep.equal(['10.0.0.3', '10.0.0.2', '10.0.0.1']);
      // A client that forges hops to the left of an untrusted one is not believed.
      asked.length = 0;
      expect(clientAddress(peer, '1.1.1.1, 203.0.113.5, 10.0.0.2', internal)).to.equal('203.0.113.5');
      expect(asked).to.deep.equal(['10.0.0.3', '10.0.0.2', '203.0.113.5']);
      // An untrusted peer: the header is not read.
      expect(clientAddress('203.0.113.9', chain, internal)).to.equal('203.0.113.9');
    });

    it('stops the walk at an entry that is not an address, keeping the last good one', () => {
      expect(clientAddress(peer, '1.1.1.1, not an address, 10.0.0.2', true)).to.equal('10.0.0.2');
      expect(clientAddress(peer, '1.1.1.1,,10.0.0.2', true)).to.equal('10.0.0.2');
      expect(clientAddress(peer, '1.1.1.1, <script>', true)).to.equal(peer);
      expect(clientAddress(peer, '1.1.1.1, a\r\nb', true)).to.equal(peer);
      expect(clientAddress(peer, '', true)).to.equal(peer);
      expect(clientAddress(peer, `1.1.1.1, ${'9'.repeat(65)}`, true)).to.equal(peer);
      expect(clientAddress(peer, '1.1.1.1, 2.2.2.2, bad address', 1)).to.equal(peer);
    });

    it('takes IPv6 addresses, bracketed or with a zone, and obfuscated identifiers', () => {
      expect(clientAddress(peer, '2001:db8::1', 1)).to.equal('2001:db8::1');
      expect(clientAddress(peer, '[2001:db8::1]', 1)).to.equal('[2001:db8::1]');
      expect(clientAddress(peer, 'fe80::1%eth0', 1)).to.equal('fe80::1%eth0');
      expect(clientAddress(peer, '_hidden', 1)).to.equal('_hidden');
      expect(clientAddress(peer, 'unknown', 1)).to.equal('unknown');
    });

    it('is undefined without a peer address, whatever the header', () => {
      expect(clientAddress(undefined, chain, true)).to.equal(undefined);
      expect(clientAddress(undefined, chain, 2)).to.equal(undefined);
      expect(clientAddress(undefined, chain, () => true)).to.equal(undefined);
      expect(clientAddress(undefined, null, false)).to.equal(undefined);
    });

    it("property: the answer is the peer or one of the header's entries, and trust false is always the peer", () => {
      const entry = fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 8 }));
      const trust = fc.oneof(fc.boolean(), fc.nat({ max: 6 }));
      fc.assert(
        fc.property(fc.ipV4(), fc.array(entry, { maxLength: 6 }), trust, (from, hops, trusted) => {
          const header = hops.join(', ');
          const address = clientAddress(from, header, trusted);
          expect([from, ...header.split(',').map((h) => h.trim())]).to.include(address);
          if (trusted === false || trusted === 0) expect(address).to.equal(from);
        }),
      );
    });
  });
});
