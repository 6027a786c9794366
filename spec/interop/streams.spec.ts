// Streams as tools we did not write read them: jq reads JSON Lines (the items, the problem
// document after them, blank lines ignored), Python's cbor2 reads CBOR sequences and msgpack's
// Unpacker reads MessagePack sequences (the end marker as cbor2's `undefined` and as msgpack's
// ExtType(0, b'\x00'), then again, or the problem document). Run by `npm run test:interop`: it needs
// /usr/bin/jq and /usr/bin/python3 with the Debian packages python3-msgpack and python3-cbor2, and
// fails, saying what to install, without them.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { failure, stream, ticket } from '../transports/protocol/streams/streams.case.ts';

const JQ = '/usr/bin/jq';
const PYTHON = '/usr/bin/python3';

/** Runs `command` with `input` on its stdin; fails saying what to install when it cannot run. */
function runTool(command: string, args: string[], input: Uint8Array, install: string): string {
  const run = spawnSync(command, args, { input, encoding: 'utf8', timeout: 30_000 });
  if (run.error !== undefined)
    throw new Error(`cannot run ${command} (${run.error.message}): this spec needs it; install it with \`${install}\``);
  if (run.status !== 0) {
    if (/ModuleNotFoundError|No module named/.test(run.stderr)) {
      throw new Error(
        `${command} lacks a module this spec needs: ${run.stderr.trim().split('\n').at(-1)}; install it with \`${install}\``,
      );
    }
    throw new Error(`${command} failed (status ${run.status}):\n${run.stderr}`);
  }
  return run.stdout;
}

/** What `script` prints as JSON, run by Python with the stream on its stdin. */
function python(script: string, input: Uint8Array): unknown {
  return JSON.parse(
    runTool(PYTHON, ['-c', `${PRELUDE}\n${script}`], input, 'apt-get install python3 python3-msgpack python3-cbor2'),
  );
}

/** Shows what Python decoded as JSON: the end markers by name. */
const PRELUDE = `
import sys, json, io, cbor2, msgpack
def show(v):
    if v is cbor2.undefined:
        return '<cbor undefined>'
    if isinstance(v, msgpack.ExtType):
        return '<ext %d %s>' % (v.code, v.data.hex())
    return v
`;

const items = [ticket(0), ticket(1), ticket(2)];

describe('streams, read by jq and Python', () => {
  it('jq reads the items of a JSON Lines stream, and the problem document that ends a failed one', () => {
    const jq = (bytes: Uint8Array) =>
      runTool(JQ, ['-c', '.'], bytes, 'apt-get install jq')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
    expect(jq(stream('application/jsonl', json, items))).to.deep.equal(items);
    expect(jq(stream('application/jsonl', json, items, failure))).to.deep.equal([...items, failure]);
    // A filter over the items, as a user at a terminal runs one.
    expect(
      runTool(
        JQ,
        ['-r', 'select(.done == true) | .id'],
        stream('application/jsonl', json, items),
        'apt-get install jq',
      ).trim(),
    ).to.equal('0');
  });

  it("cbor2 reads a CBOR sequence's items, then undefined and undefined, or undefined and the problem document", () => {
    const script = `
data = io.BytesIO(sys.stdin.buffer.read())
out = []
while data.tell() < len(data.getbuffer()):
    out.append(show(cbor2.CBORDecoder(data).decode()))
print(json.dumps(out))`;
    expect(python(script, stream('application/cbor-seq', cbor, items))).to.deep.equal([
      ...items,
      '<cbor undefined>',
      '<cbor undefined>',
    ]);
    expect(python(script, stream('application/cbor-seq', cbor, items, failure))).to.deep.equal([
      ...items,
      '<cbor undefined>',
      failure,
    ]);
  });

  it("msgpack's Unpacker reads a MessagePack sequence's items, then the end extension twice, or it and the problem document", () => {
    const script = `
unpacker = msgpack.Unpacker(raw=False)
unpacker.feed(sys.stdin.buffer.read())
print(json.dumps([show(v) for v in unpacker]))`;
    expect(python(script, stream('application/msgpack-seq', msgpack, items))).to.deep.equal([
      ...items,
      '<ext 0 00>',
      '<ext 0 00>',
    ]);
    expect(python(script, stream('application/msgpack-seq', msgpack, items, failure))).to.deep.equal([
      ...items,
      '<ext 0 00>',
      failure,
    ]);
  });
});
