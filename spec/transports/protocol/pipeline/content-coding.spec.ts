// The decisions of compression, without a transport: Accept-Encoding, which answers are
// compressed, Vary, and what a request's Content-Encoding means (transports/rest/content-coding.ts).
import { expect } from 'chai';
import fc from 'fast-check';
import {
  CompressionPolicy,
  DEFAULT_COMPRESSION_THRESHOLD,
  RESPONSE_CODINGS,
  hasZlibHeader,
  markEncoded,
  negotiateEncoding,
  parseAcceptEncoding,
  requestBodyCoding,
  resolveCompression,
  type ResponseCoding,
} from '../../../../transports/protocol/pipeline/content-coding.ts';
import { addVary } from '../../../../transports/protocol/vary.ts';
import type { EndpointResponse, HeaderValues } from '../../../../transports/protocol/types.ts';
import { deflateRawSync, deflateSync } from 'node:zlib';

const ALL: readonly ResponseCoding[] = ['br', 'zstd', 'gzip'];

/** An `Accept-Encoding` member, well-formed or not. */
const member = fc
  .oneof(
    fc.constantFrom('gzip', 'br', 'zstd', 'identity', '*', 'deflate', 'x-gzip', 'GZIP', 'Br', 'compress', ''),
    fc.string({ maxLength: 8 }),
  )
  .chain((coding) =>
    fc.oneof(
      fc.constant(coding),
      fc
        .constantFrom('0', '1', '0.5', '0.001', '1.000', '0.0', '2', '-1', 'abc', '0.0001', '', '1.1')
        .map((q) => `${coding};q=${q}`),
      fc.string({ maxLength: 6 }).map((junk) => `${coding};${junk}`),
      fc.constantFrom(' ', '  ', '\t', '\n').map((ws) => `${ws}${coding}${ws}`),
    ),
  );
const header = fc.oneof(
  fc.array(member, { maxLength: 6 }).map((ms) => ms.join(',')),
  fc.string({ maxLength: 40 }),
);
const offered = fc.subarray([...ALL]).chain((codings) => fc.shuffledSubarray(codings, { minLength: codings.length }));

// Whitespace as JavaScript's trim() sees it: a header value never holds more than spaces and tabs.
const MEMBER = /^\s*([!#$%&'*+.^_`|~0-9a-z-]+)\s*(?:;\s*q\s*=\s*(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)\s*)?$/i;

/**
 * The q-value `value` gives `coding`, read by a grammar of its own (RFC 9110 §12.5.3), not by the
 * parser under test: the lowest q of the members naming it, else of `*`; `undefined` if neither.
 */
function oracleQ(value: string, coding: string): number | undefined {
  const named: number[] = [];
  const star: number[] = [];
  for (const part of value.split(',')) {
    const m = MEMBER.exec(part);
    if (m === null) continue;
    const name = m[1]!.toLowerCase() === 'x-gzip' ? 'gzip' : m[1]!.toLowerCase();
    const q = m[2] === undefined ? 1 : Number(m[2]);
    if (name === coding) named.push(q);
    else if (name === '*') star.push(q);
  }
  if (named.length > 0) return Math.min(...named);
  return star.length > 0 ? Math.min(...star) : undefined;
}

describe('transports/rest content codings', () => {
  describe('Accept-Encoding', () => {
    it('never throws, and only picks an offered coding the client rates above 0 (property)', () => {
      fc.assert(
        fc.property(header, offered, (value, codings) => {
          const chosen = negotiateEncoding(value, codings);
          if (chosen === undefined) return;
          expect(codings).to.include(chosen);
          expect(oracleQ(value, chosen)).to.be.above(0);
          // No offered coding the client rates higher was passed over.
          for (const other of codings) expect(oracleQ(value, other) ?? 0).to.be.at.most(oracleQ(value, chosen)!);
        }),
        { numRuns: 3000 },
      );
    });

    it('picks a coding whenever an offered one is rated above 0 and identity is not preferred (property)', () => {
      fc.assert(
        fc.property(header, offered, (value, codings) => {
          const best = Math.max(0, ...codings.map((c) => oracleQ(value, c) ?? 0));
          const identity = oracleQ(value, 'identity') ?? 0;
          const chosen = negotiateEncoding(value, codings);
          if (best > 0 && identity <= best) expect(chosen, value).not.to.equal(undefined);
          else expect(chosen, value).to.equal(undefined);
        }),
        { numRuns: 3000 },
      );
    });

    it('parses only well-formed members, lower-cased, x-gzip as gzip, the lowest q of a repeated coding', () => {
      expect(parseAcceptEncoding('GZIP;Q=0.5, br , x-gzip;q=1, *;q=0')).to.deep.equal([
        { coding: 'gzip', q: 0.5 },
        { coding: 'br', q: 1 },
        { coding: '*', q: 0 },
      ]);
      expect(parseAcceptEncoding('gzip;q=2, br;q=abc, zstd;level=3, "gzip", g zip, ;q=1, ,,')).to.deep.equal([]);
      expect(parseAcceptEncoding('gzip;q=0.001, br;q=1.000, zstd;q=0.')).to.deep.equal([
        { coding: 'gzip', q: 0.001 },
        { coding: 'br', q: 1 },
        { coding: 'zstd', q: 0 },
      ]);
    });

    it('prefers the highest q, then the order offered, and a coding to identity at equal q', () => {
      expect(negotiateEncoding('gzip, br, zstd', ALL)).to.equal('br');
      expect(negotiateEncoding('gzip, zstd', ALL)).to.equal('zstd');
      expect(negotiateEncoding('gzip, br', ['gzip', 'br'])).to.equal('gzip');
      expect(negotiateEncoding('gzip;q=0.9, br;q=0.8', ALL)).to.equal('gzip');
      expect(negotiateEncoding('*', ALL)).to.equal('br');
      expect(negotiateEncoding('br;q=0, *', ALL)).to.equal('zstd');
      expect(negotiateEncoding('br;q=0, *', ['br', 'gzip'])).to.equal('gzip');
      expect(negotiateEncoding('gzip;q=0.5, identity', ALL)).to.equal(undefined);
      expect(negotiateEncoding('gzip;q=0.5, *;q=0.6', ['gzip'])).to.equal(undefined);
      expect(negotiateEncoding('gzip;q=0.5, identity;q=0.5', ALL)).to.equal('gzip');
      expect(negotiateEncoding('identity;q=0', ALL)).to.equal(undefined);
      expect(negotiateEncoding('*;q=0', ALL)).to.equal(undefined);
      expect(negotiateEncoding('*;q=0, gzip', ALL)).to.equal('gzip');
      expect(negotiateEncoding('', ALL)).to.equal(undefined);
      expect(negotiateEncoding('gzip', [])).to.equal(undefined);
    });
  });

  describe('which answers are compressed', () => {
    const big = 'x'.repeat(DEFAULT_COMPRESSION_THRESHOLD);
    const answer = (
      status: number,
      body: string | Uint8Array | undefined,
      headers: HeaderValues = {},
    ): EndpointResponse => ({ status, headers, body });
    const policy = new CompressionPolicy(DEFAULT_COMPRESSION_THRESHOLD, ALL);

    it('compresses a body of at least the threshold and marks Vary, whatever the coding', () => {
      const a = answer(200, big, { vary: 'Accept' });
      expect(policy.plan(a, false, 'gzip')).to.equal('gzip');
      expect(a.headers.vary).to.equal('Accept, Accept-Encoding');
      const b = answer(200, big);
      expect(policy.plan(b, false, 'compress')).to.equal(undefined);
      expect(b.headers.vary).to.equal('Accept-Encoding');
    });

    it('counts the threshold in UTF-8 bytes', () => {
      const threshold = new CompressionPolicy(12, ALL);
      expect(threshold.plan(answer(200, 'ééééé'), false, 'gzip')).to.equal(undefined); // 10 bytes
      expect(threshold.plan(answer(200, 'éééééé'), false, 'gzip')).to.equal('gzip'); // 12 bytes
      expect(threshold.plan(answer(200, '😀😀😀'), false, 'gzip')).to.equal('gzip'); // 12 bytes in 6 UTF-16 units
      expect(threshold.plan(answer(200, new Uint8Array(11)), false, 'gzip')).to.equal(undefined);
    });

    it('leaves alone HEAD (Vary kept), 204, 304, an encoded answer, compressed media, an empty or small body', () => {
      const head = answer(200, big);
      expect(policy.plan(head, true, 'gzip')).to.equal(undefined);
      expect(head.headers.vary).to.equal('Accept-Encoding');
      for (const a of [
        answer(204, undefined),
        answer(304, big),
        answer(200, big, { 'content-encoding': 'gzip' }),
        answer(200, big, { 'content-type': 'image/png' }),
        answer(200, big, { 'content-type': 'application/zip' }),
        answer(200, ''),
        answer(200, 'small'),
        answer(200, undefined),
      ]) {
        expect(policy.plan(a, false, 'gzip, br')).to.equal(undefined);
        expect(a.headers.vary).to.equal(undefined);
      }
      expect(policy.plan(answer(200, big, { 'content-type': 'image/svg+xml' }), false, 'gzip')).to.equal('gzip');
      expect(new CompressionPolicy(0, []).plan(answer(200, big), false, 'gzip')).to.equal(undefined);
    });

    it('merges Vary without repeating a member, and leaves Vary: * alone', () => {
      const h: HeaderValues = { vary: 'Accept, Origin' };
      addVary(h, 'Accept-Encoding');
      addVary(h, 'Accept-Encoding');
      expect(h.vary).to.equal('Accept, Origin, Accept-Encoding');
      const lower: HeaderValues = { vary: 'accept-encoding' };
      addVary(lower, 'Accept-Encoding');
      expect(lower.vary).to.equal('accept-encoding');
      const star: HeaderValues = { vary: '*' };
      addVary(star, 'Accept-Encoding');
      expect(star.vary).to.equal('*');
      const lines: HeaderValues = { vary: ['Cookie', 'Accept'] };
      addVary(lines, 'Accept-Encoding');
      expect(lines.vary).to.equal('Cookie, Accept, Accept-Encoding');
    });

    it('labels a compressed body and weakens a strong ETag', () => {
      const strong: HeaderValues = { etag: '"v1"' };
      markEncoded(strong, 'br');
      expect(strong).to.deep.equal({ etag: 'W/"v1"', 'content-encoding': 'br' });
      const weak: HeaderValues = { etag: 'W/"v1"' };
      markEncoded(weak, 'gzip');
      expect(weak.etag).to.equal('W/"v1"');
    });

    it('checks the option', () => {
      expect(resolveCompression('X', undefined)).to.deep.equal({ threshold: 1024, encodings: RESPONSE_CODINGS });
      expect(resolveCompression('X', false)).to.equal(undefined);
      expect(resolveCompression('X', { threshold: 0, encodings: ['gzip'] })).to.deep.equal({
        threshold: 0,
        encodings: ['gzip'],
      });
      for (const bad of [
        { threshold: -1 },
        { threshold: 1.5 },
        { threshold: NaN },
        { threshold: Infinity },
        { encodings: [] },
        { encodings: ['deflate'] },
        { encodings: ['gzip', 'gzip'] },
      ]) {
        expect(() => resolveCompression('X', bad as never), JSON.stringify(bad)).to.throw(
          RangeError,
          /^X: compression/,
        );
      }
      expect(() => resolveCompression('X', true as never)).to.throw(TypeError);
    });
  });

  describe('Content-Encoding of request bodies', () => {
    const node = ['gzip', 'deflate', 'br'] as const;
    it('reads absent, empty and identity as identity, one supported coding as coded', () => {
      for (const h of [null, undefined, '', ' ', 'identity', 'IDENTITY', 'identity, identity'])
        expect(requestBodyCoding(h, node).kind).to.equal('identity');
      expect(requestBodyCoding('GZIP', node)).to.deep.equal({ kind: 'coded', coding: 'gzip' });
      expect(requestBodyCoding('x-gzip', node)).to.deep.equal({ kind: 'coded', coding: 'gzip' });
      expect(requestBodyCoding(' br ', node)).to.deep.equal({ kind: 'coded', coding: 'br' });
      expect(requestBodyCoding('identity, deflate', node)).to.deep.equal({ kind: 'coded', coding: 'deflate' });
    });
    it('refuses an unknown or unsupported coding, and stacked codings, with 415 and Accept-Encoding', () => {
      for (const h of ['compress', 'br', 'gzip, deflate', 'gzip;q=1', 'zstd']) {
        const result = requestBodyCoding(h, ['gzip', 'deflate']);
        expect(result.kind, h).to.equal('unsupported');
        if (result.kind !== 'unsupported') continue;
        expect(result.problem.status).to.equal(415);
        expect(result.headers).to.deep.equal({ 'accept-encoding': 'gzip, deflate' });
      }
      const none = requestBodyCoding('gzip', []);
      expect(none.kind === 'unsupported' && none.headers['accept-encoding']).to.equal('identity');
    });
    it('tells zlib-wrapped deflate from raw deflate', () => {
      const text = Buffer.from('hello hello hello');
      expect(hasZlibHeader(deflateSync(text))).to.equal(true);
      for (const level of [0, 1, 6, 9]) expect(hasZlibHeader(deflateSync(text, { level }))).to.equal(true);
      expect(hasZlibHeader(deflateRawSync(text))).to.equal(false);
      expect(hasZlibHeader(new Uint8Array([0x78]))).to.equal(false);
    });
  });
});
