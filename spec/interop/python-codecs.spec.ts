// Timestamps between lacquer and Python's msgpack and cbor2 (the Debian packages python3-msgpack
// and python3-cbor2, run by /usr/bin/python3), both ways: Python reads what lacquer writes as
// `datetime`s (msgpack's extension -1 with `timestamp=3`, CBOR's tag 1), and lacquer reads as
// `Date`s what Python writes (msgpack's `datetime=True`; cbor2's tag 0 text by default and tag 1
// with `datetime_as_timestamp=True`). Dates before 1970, after 2106 and after 2514 (each of
// MessagePack's three forms), with milliseconds. Run by `npm run test:interop`, not `npm test`: it
// needs those Debian packages. Without Python or one of its modules it fails, saying what to install.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { t, type Infer } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

const PYTHON = '/usr/bin/python3';
const INSTALL = 'apt-get install python3-msgpack python3-cbor2';

/**
 * Runs `script` with `input` as JSON on its stdin and returns its stdout parsed as JSON. Fails,
 * saying what to install, when Python or one of its modules is missing.
 */
function python(script: string, input: unknown): unknown {
  const run = spawnSync(PYTHON, ['-c', `${PRELUDE}\n${script}`], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.error !== undefined) {
    throw new Error(
      `cannot run ${PYTHON} (${run.error.message}): this spec needs Python 3 with msgpack and cbor2; install them with \`${INSTALL}\``,
    );
  }
  if (run.status !== 0) {
    if (/ModuleNotFoundError|No module named/.test(run.stderr)) {
      throw new Error(
        `${PYTHON} lacks a module this spec needs: ${run.stderr.trim().split('\n').at(-1)}; install it with \`${INSTALL}\``,
      );
    }
    throw new Error(`${PYTHON} failed (status ${run.status}):\n${run.stderr}`);
  }
  return JSON.parse(run.stdout);
}

/**
 * What every script starts with: the modules, UTC, and `show`, which prints a decoded value as
 * JSON with its types kept: a datetime as milliseconds since the epoch (its microseconds too when
 * they are not whole milliseconds; with `nearest`, the nearest millisecond), bytes as hex,
 * integers as text (they may exceed 2^53).
 */
const PRELUDE = `
import sys, json, datetime, msgpack, cbor2
UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
def micros(dt):
    return (dt - EPOCH) // datetime.timedelta(microseconds=1)
def show(v, nearest=False):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            return {'naive': v.isoformat()}
        us = micros(v)
        if nearest:
            return {'date': (us + 500) // 1000}
        return {'date': us // 1000} if us % 1000 == 0 else {'date': us // 1000, 'us': us % 1000}
    if isinstance(v, (bytes, bytearray)):
        return {'bytes': v.hex()}
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {'int': str(v)}
    if isinstance(v, float):
        return {'float': repr(v)}
    if isinstance(v, list):
        return [show(x, nearest) for x in v]
    if isinstance(v, dict):
        return {'map': [[show(k), show(x, nearest)] for k, x in v.items()]}
    return {'other': type(v).__name__, 'repr': repr(v)}
def instant(ms):
    return EPOCH + datetime.timedelta(milliseconds=ms)
`;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));

/** Instants every side can hold (Python's datetime has years 1 to 9999), each form of MessagePack's timestamp among them. */
const INSTANTS = [
  '0001-01-01T00:00:00.000Z', // the first instant Python holds: timestamp96, negative
  '1900-01-01T00:00:00.000Z', // before 1970, whole seconds
  '1969-07-20T20:17:40.001Z', // before 1970, with milliseconds
  '1969-12-31T23:59:59.999Z', // a millisecond before the epoch
  '1970-01-01T00:00:00.000Z',
  '2024-05-01T12:34:56.789Z', // timestamp64
  '2024-05-01T12:34:56.000Z', // timestamp32
  '2106-02-07T06:28:15.000Z', // the last timestamp32
  '2106-02-07T06:28:16.000Z', // after 2106: 33 bits of seconds
  '2200-01-01T00:00:00.500Z',
  '2514-05-30T01:53:03.999Z', // the last timestamp64
  '2514-05-30T01:53:04.000Z', // after 2514: timestamp96
  '3000-01-01T00:00:00.001Z',
  '9999-12-31T23:59:59.999Z', // the last instant Python holds
].map((text) => new Date(text));

const Record = t.object({
  id: t.u64(),
  name: t.string(),
  at: t.timestamp(),
  history: t.array(t.timestamp()),
  until: t.optional(t.timestamp()),
  blob: t.bytes(),
  score: t.f64(),
  done: t.nullable(t.bool()),
});
const record: Infer<typeof Record> = {
  id: 2n ** 63n + 5n,
  name: 'Zoë',
  at: new Date('1969-07-20T20:17:40.001Z'),
  history: [new Date('2514-05-30T01:53:04.000Z'), new Date('2106-02-07T06:28:16.250Z'), new Date(0)],
  until: new Date('9999-12-31T23:59:59.999Z'),
  blob: new Uint8Array([0, 1, 254, 255]),
  score: -2.25,
  done: null,
};
/** How `show` prints `record` as Python decodes it. */
const shownRecord = {
  map: [
    ['id', { int: String(record.id) }],
    ['name', 'Zoë'],
    ['at', { date: record.at.getTime() }],
    ['history', record.history.map((d) => ({ date: d.getTime() }))],
    ['until', { date: record.until!.getTime() }],
    ['blob', { bytes: '0001feff' }],
    ['score', { float: '-2.25' }],
    ['done', null],
  ],
};

describe('interop: timestamps with Python (msgpack, cbor2)', function () {
  this.timeout(60_000);
  // Python and both modules, checked once: without them every test here fails with what to install.
  before(() => python('print(json.dumps(None))', null));

  describe('Python reads what lacquer writes', () => {
    it('msgpack.unpackb(timestamp=3) reads each timestamp as the same datetime, in every form', () => {
      const written = INSTANTS.map((d) => hex(msgpack.encode(t.timestamp(), d)));
      const read = python(
        `print(json.dumps([show(msgpack.unpackb(bytes.fromhex(h), timestamp=3)) for h in json.load(sys.stdin)]))`,
        written,
      );
      expect(read).to.deep.equal(INSTANTS.map((d) => ({ date: d.getTime() })));
      // The three forms are all there: fixext 4, fixext 8 and ext 8 of 12 bytes.
      expect(new Set(written.map((h) => h.slice(0, 4)))).to.deep.equal(new Set(['d6ff', 'd7ff', 'c70c']));
    });

    it('cbor2.loads reads each timestamp (tag 1) as the same datetime, to the millisecond', () => {
      const written = INSTANTS.map((d) => hex(cbor.encode(t.timestamp(), d)));
      // A float of seconds carries a millisecond to within a microsecond or so: Python rounds to the nearest one.
      const read = python(
        `
def ms(v):
    assert isinstance(v, datetime.datetime) and v.tzinfo is not None, repr(v)
    return (micros(v) + 500) // 1000
print(json.dumps([ms(cbor2.loads(bytes.fromhex(h))) for h in json.load(sys.stdin)]))`,
        written,
      );
      expect(read).to.deep.equal(INSTANTS.map((d) => d.getTime()));
      expect(written.every((h) => h.startsWith('c1'))).to.equal(true);
    });

    it('both read a record holding timestamps among other kinds (cbor2 to the nearest millisecond)', () => {
      const read = python(
        `
packed, cbored = json.load(sys.stdin)
print(json.dumps([show(msgpack.unpackb(bytes.fromhex(packed), timestamp=3)), show(cbor2.loads(bytes.fromhex(cbored)), nearest=True)]))`,
        [hex(msgpack.encode(Record, record)), hex(cbor.encode(Record, record))],
      );
      expect(read).to.deep.equal([shownRecord, shownRecord]);
    });
  });

  describe('lacquer reads what Python writes', () => {
    /** Each instant as Python writes it: msgpack, cbor2's tag 0 and cbor2's tag 1, as hex. */
    const written = (instants: readonly Date[]) =>
      python(
        `
out = []
for ms in json.load(sys.stdin):
    dt = instant(ms)
    out.append([msgpack.packb(dt, datetime=True).hex(), cbor2.dumps(dt).hex(), cbor2.dumps(dt, datetime_as_timestamp=True).hex()])
print(json.dumps(out))`,
        instants.map((d) => d.getTime()),
      ) as [string, string, string][];

    it('msgpack.packb(datetime=True): every form, read as the same Date', () => {
      const forms = written(INSTANTS).map(([packed]) => packed);
      expect(forms.map((h) => msgpack.decode(t.timestamp(), fromHex(h)))).to.deep.equal(INSTANTS);
      expect(new Set(forms.map((h) => h.slice(0, 4)))).to.deep.equal(new Set(['d6ff', 'd7ff', 'c70c']));
    });

    it('cbor2.dumps: RFC 3339 text under tag 0, read as the same Date', () => {
      const forms = written(INSTANTS).map(([, text]) => text);
      expect(forms.every((h) => h.startsWith('c0'))).to.equal(true);
      expect(forms.map((h) => cbor.decode(t.timestamp(), fromHex(h)))).to.deep.equal(INSTANTS);
    });

    it('cbor2.dumps(datetime_as_timestamp=True): seconds under tag 1, an integer or a float, read as the same Date', () => {
      const forms = written(INSTANTS).map(([, , seconds]) => seconds);
      expect(forms.every((h) => h.startsWith('c1'))).to.equal(true);
      // Whole seconds as integers, the others as floats.
      expect(forms.filter((h) => h.startsWith('c1fb')).length).to.equal(
        INSTANTS.filter((d) => d.getTime() % 1000 !== 0).length,
      );
      expect(forms.map((h) => cbor.decode(t.timestamp(), fromHex(h)))).to.deep.equal(INSTANTS);
    });

    it('datetimes in another time zone and with microseconds', () => {
      const forms = python(
        `
dt = datetime.datetime(2024, 5, 1, 14, 34, 56, 123456, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
print(json.dumps([msgpack.packb(dt, datetime=True).hex(), cbor2.dumps(dt).hex(), cbor2.dumps(dt, datetime_as_timestamp=True).hex()]))`,
        null,
      ) as string[];
      const expected = new Date('2024-05-01T12:34:56.123Z'); // finer than milliseconds dropped
      expect(msgpack.decode(t.timestamp(), fromHex(forms[0]!))).to.deep.equal(expected);
      expect(cbor.decode(t.timestamp(), fromHex(forms[1]!))).to.deep.equal(expected);
      expect(cbor.decode(t.timestamp(), fromHex(forms[2]!))).to.deep.equal(expected);
      // cbor2 keeps the offset in the text.
      expect(new TextDecoder().decode(fromHex(forms[1]!).subarray(3))).to.equal('2024-05-01T14:34:56.123456+02:00');
    });

    it('a record holding timestamps among other kinds, in both formats', () => {
      const [packed, text, seconds] = python(
        `
r = json.load(sys.stdin)
value = {'id': int(r['id']), 'name': r['name'], 'at': instant(r['at']), 'history': [instant(ms) for ms in r['history']],
         'until': instant(r['until']), 'blob': bytes.fromhex(r['blob']), 'score': r['score'], 'done': None}
print(json.dumps([msgpack.packb(value, datetime=True, use_bin_type=True).hex(), cbor2.dumps(value).hex(),
                  cbor2.dumps(value, datetime_as_timestamp=True).hex()]))`,
        {
          id: String(record.id),
          name: record.name,
          at: record.at.getTime(),
          history: record.history.map((d) => d.getTime()),
          until: record.until!.getTime(),
          blob: '0001feff',
          score: record.score,
        },
      ) as string[];
      const strict = { errorOnMissingKeys: true, errorOnUnknownKeys: true };
      expect(msgpack.decode(Record, fromHex(packed!), strict)).to.deep.equal(record);
      expect(cbor.decode(Record, fromHex(text!), strict)).to.deep.equal(record);
      expect(cbor.decode(Record, fromHex(seconds!), strict)).to.deep.equal(record);
      // t.unknown takes them as Dates too.
      const any = msgpack.decode(t.map(t.unknown()), fromHex(packed!)) as Record<string, unknown>;
      expect(any.at).to.deep.equal(record.at);
    });
  });
});
