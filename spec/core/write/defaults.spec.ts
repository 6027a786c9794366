// Defaults on write: an absent member (undefined) whose descriptor has `.default()` is written as
// its default, checked by the member's writer; absent without one, an optional member is skipped
// and any other is a missing_key. Also the JSON string form of 64-bit integers.
import { expect } from 'chai';
import { unpack } from 'msgpackr';
import { decode as cborDecode } from 'cbor-x';
import { t } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { expectGeneratedWrites, expectWriteError, expectWritten } from '../../support/write-paths.ts';

/** MessagePack or CBOR bytes, told apart by their first byte (a map of 6: 0x86 in MessagePack, 0xa6 in CBOR). */
const unpackAny = (bytes: Uint8Array): unknown => (bytes[0] === 0x86 ? unpack(bytes) : cborDecode(bytes));
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));

describe('core/write: defaults', () => {
  const Settings = t.object({
    name: t.string(),
    retries: t.i32().default(3),
    label: t.string().default('none'),
    note: t.optional(t.string()),
    level: t.optional(t.i32()).default(1),
    tags: t.array(t.string()).default(['a']),
    since: t.timestamp().default(new Date(Date.UTC(2020, 0, 1))),
  });

  it('writes absent members with a default as their default, in every codec', () => {
    const written = expectWritten(Settings, { name: 'x' });
    const expected = { name: 'x', retries: 3, label: 'none', level: 1, tags: ['a'] };
    expect(written.json).to.equal(
      '{"name":"x","retries":3,"label":"none","level":1,"tags":["a"],"since":"2020-01-01T00:00:00.000Z"}',
    );
    // The map heads count the members written: other libraries read every one of them.
    expect(unpack(fromHex(written.msgpack))).to.deep.equal({ ...expected, since: new Date(Date.UTC(2020, 0, 1)) });
    expect(cborDecode(fromHex(written.cbor))).to.deep.equal({ ...expected, since: new Date(Date.UTC(2020, 0, 1)) });
  });

  it('takes the input type in encode: members with a default, and optional ones, may be left out', () => {
    // Type-checked: `name` alone is a valid input (InferInput), as the defaults fill the rest.
    const text: string = json.encode(Settings, { name: 'x' });
    const bytes: Uint8Array = msgpack.encode(Settings, { name: 'x', retries: 1 });
    expect(JSON.parse(text)).to.include({ retries: 3 });
    expect(unpack(bytes)).to.include({ retries: 1 });
    // @ts-expect-error `name` has no default
    expect(() => cbor.encode(Settings, {})).to.throw(/missing required member 'name'/);
  });

  it('writes the value when it is present, and takes the generated path either way', () => {
    const value = { name: 'x', retries: 0, label: '', note: 'n', level: 9, tags: [], since: new Date(0) };
    expect(expectWritten(Settings, value).json).to.equal(
      '{"name":"x","retries":0,"label":"","note":"n","level":9,"tags":[],"since":"1970-01-01T00:00:00.000Z"}',
    );
    expectGeneratedWrites(Settings, value);
    expectGeneratedWrites(Settings, { name: 'x' });
  });

  it('treats only undefined as absent: null is a value, checked as such', () => {
    expectWriteError(Settings, { name: 'x', retries: null }, 'type_mismatch', '/retries');
    // null for an optional member with a default is written as null (optional writes null as nil).
    expect(expectWritten(Settings, { name: 'x', level: null }).json).to.contain('"level":null');
  });

  it('checks the default with the member writer', () => {
    const type = t.object({ n: t.u8().default(300), s: t.string({ minLength: 2 }).default('a') });
    expect(expectWriteError(type, { s: 'ab' }, 'out_of_range', '/n')).to.contain('u8');
    expect(expectWriteError(type, { n: 1 }, 'out_of_range', '/s')).to.contain('minLength (2)');
  });

  it('skips absent optional members without a default, and refuses other absent members', () => {
    const message = expectWriteError(Settings, { label: 'y' }, 'missing_key', '/name');
    expect(message).to.equal("cannot write: missing required member 'name' at the root");
    const nested = t.object({ inner: t.object({ a: t.i32(), b: t.i32().default(2) }) });
    expect(expectWritten(nested, { inner: { a: 1 } }).json).to.equal('{"inner":{"a":1,"b":2}}');
    expectWriteError(nested, { inner: { b: 1 } }, 'missing_key', '/inner/a');
  });

  it("follows t.lazy: the lazy node's own default, else its target's", () => {
    const type = t.object({
      own: t.lazy(() => t.i32()).default(4),
      target: t.lazy(() => t.i32().default(5)),
      optional: t.lazy(() => t.optional(t.i32())),
    });
    expect(expectWritten(type, {}).json).to.equal('{"own":4,"target":5}');
    expect(expectWritten(type, { optional: 6 }).json).to.equal('{"own":4,"target":5,"optional":6}');
  });

  it('reads each member once, default or not', () => {
    for (const encode of [json.encode, msgpack.encode, cbor.encode]) {
      let reads = 0;
      const value = {
        name: 'x',
        get retries() {
          reads++;
          return reads === 1 ? undefined : 'surprise';
        },
      };
      const out = encode(Settings, value as never);
      expect(reads).to.equal(1);
      expect(typeof out === 'string' ? JSON.parse(out) : unpackAny(out)).to.include({ retries: 3 });
    }
  });

  it("writes a variant member's absent members with their defaults", () => {
    const A = t.object({ kind: t.literal('a'), n: t.i32().default(1) });
    const B = t.object({ kind: t.literal('b') });
    const type = t.variant('kind', [A, B]);
    expect(expectWritten(type, { kind: 'a' }).json).to.equal('{"kind":"a","n":1}');
    expectGeneratedWrites(type, { kind: 'a' });
  });
});

describe('core/write: 64-bit integers as JSON strings', () => {
  const type = t.object({ id: t.u64({ json: 'string' }), delta: t.i64({ json: 'string' }), plain: t.i64() });

  it('writes the integer as a decimal string in JSON, natively in MessagePack and CBOR', () => {
    const value = { id: 2n ** 64n - 1n, delta: -(2n ** 63n), plain: 2n ** 63n - 1n };
    const written = expectWritten(type, value);
    expect(written.json).to.equal(
      '{"id":"18446744073709551615","delta":"-9223372036854775808","plain":9223372036854775807}',
    );
    expect(written.msgpack).to.contain('cfffffffffffffffff'); // uint 64
    expect(written.msgpack).to.contain('d38000000000000000'); // int 64
    expect(written.cbor).to.contain('1bffffffffffffffff');
    expectGeneratedWrites(type, value);
  });

  it('takes safe-integer numbers as bigints do, and small values', () => {
    expect(expectWritten(type, { id: 0, delta: -5, plain: 7 }).json).to.equal('{"id":"0","delta":"-5","plain":7}');
    expect(expectWritten(type, { id: 12n, delta: 0n, plain: 0n }).json).to.equal('{"id":"12","delta":"0","plain":0}');
    expect(expectWritten(t.i64({ json: 'string' }), 5n, { prettify: true }).json).to.equal('"5"');
  });

  it('refuses what the number form refuses: other types, out of range, outside the bounds', () => {
    expectWriteError(type, { id: '12', delta: 0n, plain: 0n }, 'type_mismatch', '/id');
    expectWriteError(type, { id: -1n, delta: 0n, plain: 0n }, 'out_of_range', '/id');
    expectWriteError(type, { id: 1.5, delta: 0n, plain: 0n }, 'type_mismatch', '/id');
    expectWriteError(type, { id: 1n, delta: 2n ** 63n, plain: 0n }, 'out_of_range', '/delta');
    const bounded = t.i64({ json: 'string', minimum: 0n, maximum: 10 });
    expect(expectWritten(bounded, 10n).json).to.equal('"10"');
    expect(expectWriteError(bounded, 11n, 'out_of_range', '')).to.equal('11 is above the maximum (10) at the root');
    expectWriteError(bounded, -1, 'out_of_range', '');
  });
});
