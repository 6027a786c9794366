// The one grammar of the header values lacquer reads (transports/protocol/header-grammar.ts): lists,
// tokens and weighted lists (RFC 9110 §5.6, §12.4.2), and the two negotiations built on it.
import { expect } from 'chai';
import fc from 'fast-check';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import {
  CompressionPolicy,
  negotiateEncoding,
  type ResponseCoding,
} from '../../../transports/protocol/pipeline/content-coding.ts';
import { isToken, listMembers, parseWeightedList } from '../../../transports/protocol/header-grammar.ts';
import { parseAccept } from '../../../transports/protocol/media-type.ts';
import { chooseResponseCodec } from '../../../transports/protocol/negotiate.ts';

/** One member as meant: its name (lower-case), its weight in thousandths, whether the weight is written. */
interface Member {
  readonly name: string;
  readonly thousandths: number;
  readonly written: boolean;
}

/** Optional whitespace (OWS: spaces and tabs). */
const ows = fc.constantFrom('', ' ', '  ', '\t', ' \t');

/** `name` in a random case, letter by letter. */
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** The ways of writing a weight of `thousandths` / 1000: `0.5`, `0.50`, `0.500`, `1`, `1.`, `1.000`… */
function qForms(thousandths: number): string[] {
  const full = (thousandths / 1000).toFixed(3); // 0.500
  const forms = [full];
  for (let s = full; s.endsWith('0') || s.endsWith('.'); ) {
    s = s.slice(0, -1);
    forms.push(s);
  }
  return forms.filter((f) => /^[01](?:\.\d{0,3})?$/.test(f));
}

/** Weights in thousandths, the bounds and ties more often than chance would give. */
const thousandths = fc.oneof(fc.constantFrom(0, 1, 500, 999, 1000), fc.integer({ min: 0, max: 1000 }));

const memberOf = (names: readonly string[]) =>
  fc
    .record({ name: fc.constantFrom(...names), thousandths, written: fc.boolean() })
    .map((m): Member => (m.thousandths === 1000 ? m : { ...m, written: true }));

/** `member` as a client might write it: any case, any OWS, any form of its weight, parameters if allowed. */
function written(member: Member, parameters: boolean): fc.Arbitrary<string> {
  return fc
    .tuple(
      anyCase(member.name),
      fc.constantFrom(...qForms(member.thousandths)),
      anyCase('q'),
      ows,
      ows,
      ows,
      ows,
      parameters ? fc.constantFrom('', ';charset=utf-8', '; level=1 ') : fc.constant(''),
    )
    .map(
      ([name, q, qName, a, b, c, d, params]) =>
        `${a}${name}${params}${member.written ? `${b};${c}${qName}=${q}` : ''}${d}`,
    );
}

/** `members` written out: each as {@link written}, with empty members between some of them. */
function list(members: readonly Member[], parameters: boolean): fc.Arbitrary<string> {
  const parts = members.map((m) =>
    fc.tuple(written(m, parameters), fc.constantFrom('', ',', ', ,')).map(([text, empty]) => text + empty),
  );
  return (parts.length === 0 ? fc.constant([] as string[]) : fc.tuple(...parts)).map((texts) => texts.join(','));
}

/** `members` as the canonical text: lower case, no whitespace, shortest weight. */
const canonical = (members: readonly Member[]) =>
  members.map((m) => (m.written ? `${m.name};q=${m.thousandths / 1000}` : m.name)).join(',');

const CODINGS = ['gzip', 'br', 'zstd', 'identity', '*', 'compress'];
const RANGES = ['application/json', 'application/cbor', 'application/msgpack', 'application/*', '*/*', 'text/html'];

describe('transports/rest header grammar', () => {
  describe('weighted lists (property)', () => {
    for (const parameters of [false, true]) {
      it(`reads each member's name and weight, whatever its case, whitespace and form of the weight (${parameters ? 'with' : 'without'} parameters)`, () => {
        const names = parameters ? RANGES : CODINGS;
        fc.assert(
          fc.property(
            fc
              .array(memberOf(names), { maxLength: 6 })
              .chain((members) => fc.tuple(fc.constant(members), list(members, parameters))),
            ([members, header]) => {
              expect(parseWeightedList(header, parameters), header).to.deep.equal(
                members.map((m) => ({ name: m.name, q: m.thousandths / 1000 })),
              );
            },
          ),
          { numRuns: 2000 },
        );
      });
    }

    it('leaves out a member whose weight is no q-value, and only that member', () => {
      const bad = fc.constantFrom(
        '2',
        '1.001',
        '1.5',
        '0.0001',
        '-0',
        '.5',
        '+1',
        '01',
        '1e0',
        '0x1',
        'abc',
        '',
        '0. 5',
        'Infinity',
      );
      fc.assert(
        fc.property(
          fc.array(memberOf(CODINGS), { maxLength: 4 }),
          fc.nat(4),
          bad,
          fc.boolean(),
          (members, at, q, parameters) => {
            const i = Math.min(at, members.length);
            const header = [
              ...members.slice(0, i).map((m) => canonical([m])),
              `gzip;q=${q}`,
              ...members.slice(i).map((m) => canonical([m])),
            ].join(', ');
            expect(parseWeightedList(header, parameters), header).to.deep.equal(
              members.map((m) => ({ name: m.name, q: m.thousandths / 1000 })),
            );
          },
        ),
        { numRuns: 500 },
      );
    });

    it('leaves out a member with a parameter other than its weight only where members take none', () => {
      const header =
        'gzip;level=3, br;q=0.5;x=1, zstd;, compress;q=0.5;q=1, deflate;q=0.2, text/html;level=1;q=0.4, a/b;';
      expect(parseWeightedList(header, false)).to.deep.equal([{ name: 'deflate', q: 0.2 }]);
      expect(parseWeightedList(header, true)).to.deep.equal([
        { name: 'gzip', q: 1 },
        { name: 'br', q: 0.5 },
        { name: 'zstd', q: 1 },
        { name: 'compress', q: 1 },
        { name: 'deflate', q: 0.2 },
        { name: 'text/html', q: 0.4 },
        { name: 'a/b', q: 1 },
      ]);
    });
  });

  describe('the negotiations built on it (property)', () => {
    const encodings: readonly ResponseCoding[] = ['br', 'zstd', 'gzip'];
    const codecs = [json, msgpack, cbor];

    it('Accept-Encoding: a header written any way chooses as its canonical form does', () => {
      fc.assert(
        fc.property(
          fc
            .array(memberOf(CODINGS), { maxLength: 5 })
            .chain((members) => fc.tuple(fc.constant(members), list(members, false))),
          ([members, header]) => {
            expect(negotiateEncoding(header, encodings), header).to.equal(
              negotiateEncoding(canonical(members), encodings),
            );
            expect(new CompressionPolicy(0, encodings).choose(header), header).to.equal(
              negotiateEncoding(canonical(members), encodings),
            );
          },
        ),
        { numRuns: 2000 },
      );
    });

    it('Accept: a header written any way ranks the media types and chooses the codec as its canonical form does', () => {
      fc.assert(
        fc.property(
          fc
            .array(memberOf(RANGES), { maxLength: 5 })
            .chain((members) => fc.tuple(fc.constant(members), list(members, true))),
          ([members, header]) => {
            expect(parseAccept(header), header).to.deep.equal(parseAccept(canonical(members)));
            expect(chooseResponseCodec(codecs, header, undefined), header).to.deep.equal(
              chooseResponseCodec(codecs, canonical(members), undefined),
            );
          },
        ),
        { numRuns: 2000 },
      );
    });
  });

  describe('a member named twice', () => {
    it('a coding keeps its lowest weight: a refusal is never overridden', () => {
      expect(negotiateEncoding('gzip;q=0, gzip', ['gzip'])).to.equal(undefined);
      expect(negotiateEncoding('GZIP, x-gzip;q=0', ['gzip'])).to.equal(undefined);
      expect(negotiateEncoding('br;q=0.9, gzip, br;q=0.2', ['br', 'gzip'])).to.equal('gzip');
    });

    it('a media range keeps its highest weight: its parameters, which may tell the two apart, are not read', () => {
      const codecs = [json, cbor];
      expect(chooseResponseCodec(codecs, 'application/cbor;q=0, application/cbor', undefined)?.codec).to.equal(cbor);
      expect(
        chooseResponseCodec(
          codecs,
          'application/cbor;v=1;q=0.1, application/cbor;v=2;q=0.9, application/json;q=0.5',
          undefined,
        )?.codec,
      ).to.equal(cbor);
    });
  });

  describe('lists and tokens', () => {
    it('splits a list into its members, without whitespace or empty members (property)', () => {
      const member = fc.stringMatching(/^[A-Za-z0-9-]{1,8}$/);
      fc.assert(
        fc.property(
          fc.array(fc.tuple(ows, member, ows, fc.constantFrom('', ',', ' , ')), { maxLength: 6 }),
          (parts) => {
            const value = parts.map(([a, m, b, empty]) => `${a}${m}${b}${empty}`).join(',');
            expect(listMembers(value), value).to.deep.equal(parts.map(([, m]) => m));
          },
        ),
      );
    });

    it('knows a token from text with separators, spaces or other characters', () => {
      for (const token of ['gzip', 'X-Request-Id', "!#$%&'*+-.^_`|~09azAZ", '*'])
        expect(isToken(token), token).to.equal(true);
      for (const text of [
        '',
        'a b',
        'a:b',
        'a/b',
        'a;b',
        'a,b',
        '"a"',
        'a=b',
        'é',
        'a\tb',
        '(a)',
        '{a}',
        'a@b',
        'a\\b',
      ])
        expect(isToken(text), text).to.equal(false);
    });
  });

  describe('compression choices remembered', () => {
    it('stay correct past the bound on remembered headers', () => {
      const policy = new CompressionPolicy(0, ['br', 'gzip']);
      for (let i = 0; i < 700; i++) {
        const q = (i % 10) / 10;
        expect(policy.choose(`gzip;q=${q}, br;q=0.5, x-${i}`)).to.equal(q > 0.5 ? 'gzip' : 'br');
      }
    });
  });
});
