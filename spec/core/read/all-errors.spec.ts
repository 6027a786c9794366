// Every error at once: once reading has failed, ReadError.errors lists every problem of the input
// in document order, the error itself first, at most MAX_READ_ERRORS; in every codec, and in the
// 400 problem documents a registry answers with.
import { expect } from 'chai';
import fc from 'fast-check';
import { encode as cborEncode } from 'cbor-x';
import { encode as msgpackEncode } from '@msgpack/msgpack';
import {
  MAX_READ_ERRORS,
  ReadError,
  Registry,
  meta,
  method,
  problemForError,
  service,
  t,
  type Codec,
  type ReadErrorEntry,
  type Type,
} from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { readTree } from '../../../core/read/read.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { arbDescriptor, arbJsonNear, arbMissingKeys } from '../../support/arbitraries.ts';
import { readErrorOf } from '../../support/read-error.ts';

const Book = t.object({ id: t.u32(), title: t.string({ minLength: 1 }), tags: t.array(t.string()) }, { name: 'Book' });
const Shelf = t.object({ name: t.string(), books: t.array(Book), labels: t.map(t.u8()) });

/** The entries of `errors` as [code, path] pairs. */
const where = (errors: readonly ReadErrorEntry[]) => errors.map((e) => [e.code, e.path]);

describe('core/read: every error at once', () => {
  it('lists every problem in document order, the error itself first', () => {
    const text = JSON.stringify({
      name: 5,
      books: [
        { id: 1, title: 'ok', tags: [] },
        { id: -1, title: '', tags: ['a', 2] },
        { title: 'x', tags: [], isbn: '0' },
        'book',
      ],
      labels: { a: 1, b: 300, c: 'x' },
      extra: true,
    });
    const e = readErrorOf(() => json.decode(Shelf, text, { errorOnMissingKeys: true }));
    expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/name']);
    expect(e.errors[0]).to.deep.equal({ code: e.code, path: e.path, message: e.message });
    expect(where(e.errors)).to.deep.equal([
      ['type_mismatch', '/name'],
      ['out_of_range', '/books/1/id'],
      ['out_of_range', '/books/1/title'],
      ['type_mismatch', '/books/1/tags/1'],
      ['missing_key', '/books/2/id'],
      ['unknown_key', '/books/2/isbn'],
      ['type_mismatch', '/books/3'],
      ['out_of_range', '/labels/b'],
      ['type_mismatch', '/labels/c'],
      ['unknown_key', '/extra'],
    ]);
    expect(e.errors.map((x) => x.message)).to.include.members([
      "missing required key 'id' at /books/2",
      "unknown key 'isbn' at /books/2",
      'expected an object (Book), got a string at /books/3',
      "unknown key 'extra' at the root",
    ]);
  });

  it('lists problems in variants, tuples and behind t.lazy, with their paths', () => {
    const Shape = t.variant('type', [
      t.object({ type: t.literal('dot') }),
      t.object({ type: t.literal('line'), to: t.tuple([t.i8(), t.i8()]) }),
    ]);
    interface Group {
      shapes: unknown[];
      groups: Group[];
    }
    const Group: Type<Group> = t.object({ shapes: t.array(Shape), groups: t.array(t.lazy(() => Group)) });
    const value = {
      shapes: [{ type: 'line', to: [1, 'x'] }, { type: 'arc' }, {}],
      groups: [{ shapes: [{ type: 'line', to: [1] }], groups: [{ shapes: 1, groups: [] }] }],
    };
    const e = readErrorOf(() => json.decode(Group, JSON.stringify(value)));
    expect(where(e.errors)).to.deep.equal([
      ['type_mismatch', '/shapes/0/to/1'],
      ['type_mismatch', '/shapes/1/type'],
      ['missing_key', '/shapes/2/type'],
      ['type_mismatch', '/groups/0/shapes/0/to'],
      ['type_mismatch', '/groups/0/groups/0/shapes'],
    ]);
  });

  it(`stops at MAX_READ_ERRORS (${MAX_READ_ERRORS}): a million bad elements give a hundred entries`, () => {
    expect(MAX_READ_ERRORS).to.equal(100);
    const text = `[${'"x",'.repeat(1_000_000)}"x"]`;
    const e = readErrorOf(() => json.decode(t.array(t.i32()), text));
    expect(e.errors).to.have.length(MAX_READ_ERRORS);
    expect(e.errors[99]).to.deep.equal({
      code: 'type_mismatch',
      path: '/99',
      message: 'expected an integer (i32), got a string at /99',
    });
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    expect(readErrorOf(() => json.decode(t.object({}), JSON.stringify(keys))).errors).to.have.length(MAX_READ_ERRORS);
  });

  it('stops at a crossed limit, which is the last entry', () => {
    const Nested = t.array(t.unknown());
    const e = readErrorOf(() =>
      json.decode(t.object({ a: t.u8(), b: Nested, c: t.u8() }), '{"a":-1,"b":[[[[1]]]],"c":-1}', { maxDepth: 3 }),
    );
    expect(where(e.errors)).to.deep.equal([
      ['out_of_range', '/a'],
      ['limit_exceeded', '/b/0/0'],
    ]);
  });

  it('a failure found while parsing, or a limit before reading, is the only entry', () => {
    for (const e of [
      readErrorOf(() => json.decode(Shelf, '{"name": 5,')),
      readErrorOf(() => json.decode(Shelf, '{"name":5,"books":5}', { maxBytes: 10 })),
      readErrorOf(() => msgpack.decode(Shelf, new Uint8Array([0xc1]))),
      readErrorOf(() => json.decode(t.array(t.u8()), '[[[1]]]', { maxDepth: 1 })),
    ]) {
      expect(e.errors).to.deep.equal([{ code: e.code, path: e.path, message: e.message }]);
    }
  });

  it('a ReadError made by hand lists itself', () => {
    const e = new ReadError('syntax_error', '', 'not a record');
    expect(e.errors).to.deep.equal([{ code: 'syntax_error', path: '', message: 'not a record' }]);
  });

  it('MessagePack and CBOR list every error too, through the tree path', () => {
    const value = {
      name: 'n',
      books: [
        { id: 'x', title: 't', tags: [] },
        { id: 2, title: '', tags: [1] },
      ],
      labels: {},
    };
    const cases: [Codec, Uint8Array][] = [
      [msgpack, msgpackEncode(value)],
      [cbor, cborEncode(value)],
    ];
    for (const [codec, bytes] of cases) {
      const e = readErrorOf(() => codec.decode(Shelf, bytes));
      expect(where(e.errors), codec.name).to.deep.equal([
        ['type_mismatch', '/books/0/id'],
        ['out_of_range', '/books/1/title'],
        ['type_mismatch', '/books/1/tags/0'],
      ]);
    }
  });

  it('binary trees and plain values (readTree) list every error', () => {
    const e = readErrorOf(() => readTree(t.tuple([t.u8(), t.string(), t.bool()]), [1n, 2, 'x'], undefined, 'binary'));
    expect(where(e.errors)).to.deep.equal([
      ['type_mismatch', '/1'],
      ['type_mismatch', '/2'],
    ]);
  });

  it('reads the text again exactly when a 64-bit member beyond 2^53 follows the first error', () => {
    const Row = t.object({ a: t.u8(), big: t.i64() });
    const e = readErrorOf(() =>
      json.decode(
        t.array(Row),
        '[{"a":"x","big":1},{"a":1,"big":9223372036854775808},{"a":1,"big":9223372036854775807}]',
      ),
    );
    expect(where(e.errors)).to.deep.equal([
      ['type_mismatch', '/0/a'],
      ['out_of_range', '/1/big'],
    ]);
    expect(e.errors[1]!.message).to.equal(
      '9223372036854775808 is outside i64 (-9223372036854775808..9223372036854775807) at /1/big',
    );
  });

  it('the byte strings JSON reads count against maxItems afresh in the second reading', () => {
    // A budget of 8 items takes two byte strings (4 each): the first reading spent it before failing.
    const e = readErrorOf(() => json.decode(t.array(t.bytes()), '["AAAA","AAAA",5]', { maxItems: 8 }));
    expect(where(e.errors)).to.deep.equal([['type_mismatch', '/2']]);
  });

  it('the first entry is the error itself, for any descriptor and input', () => {
    fc.assert(
      fc.property(arbDescriptor, fc.context(), (type, ctx) => {
        fc.assert(
          fc.property(arbJsonNear(type), arbMissingKeys, (value, errorOnMissingKeys) => {
            let e: ReadError;
            try {
              json.decode(type, JSON.stringify(value), { errorOnMissingKeys });
              return;
            } catch (error) {
              if (!(error instanceof ReadError)) throw error;
              e = error;
            }
            ctx.log(JSON.stringify(e.errors));
            expect(e.errors[0]).to.deep.equal({ code: e.code, path: e.path, message: e.message });
            expect(e.errors.length).to.be.within(1, MAX_READ_ERRORS);
            // No problem is listed twice.
            expect(new Set(e.errors.map((x) => `${x.code} ${x.path} ${x.message}`)).size).to.equal(e.errors.length);
          }),
          { numRuns: 10 },
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('transports/rest: 400 problem documents carry errors', () => {
  it("problemForError writes the ReadError's entries", () => {
    const e = readErrorOf(() => json.decode(t.tuple([t.u8(), t.u8()]), '[-1,-2]'));
    const doc = problemForError(e, false);
    expect(doc).to.deep.include({ status: 400, code: 'out_of_range', path: '/0', detail: e.message });
    expect(doc.errors).to.deep.equal([
      { code: 'out_of_range', path: '/0', message: '-1 is outside u8 (0..255) at /0' },
      { code: 'out_of_range', path: '/1', message: '-2 is outside u8 (0..255) at /1' },
    ]);
  });

  it('a registry answers a body with several problems with all of them, in the codec asked for', async () => {
    const Point = t.object({ x: t.i32(), y: t.i32() });
    class Points {
      addPoints(points: { x: number; y: number }[]): number {
        return points.length;
      }
    }
    meta(Points, service({ addPoints: method([t.array(Point)], t.u32()) }));
    const handler = toFetchHandler('/api', new Registry().on(new Points()).endpoints);
    const answer = await handler(
      new Request('http://localhost/api/addPoints', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '[{"x":1,"y":"2"},{"x":1.5,"y":0,"z":0}]',
      }),
    );
    expect(answer.status).to.equal(400);
    expect(answer.headers.get('content-type')).to.equal('application/problem+json');
    const doc = (await answer.json()) as { code: string; path: string; errors: ReadErrorEntry[] };
    expect([doc.code, doc.path]).to.deep.equal(['type_mismatch', '/0/y']);
    expect(where(doc.errors)).to.deep.equal([
      ['type_mismatch', '/0/y'],
      ['type_mismatch', '/1/x'],
      ['unknown_key', '/1/z'],
    ]);
  });
});
