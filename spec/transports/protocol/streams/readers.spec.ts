// The stream readers: items, the clean end and the error told apart whatever the chunking, a cut
// at any byte read as a cut, bad items with their index in the path, maxItemBytes, bytes after
// the end, and 10,000 items of each media type.
import { expect } from 'chai';
import fc from 'fast-check';
import { ReadError, t } from '../../../../index.ts';
import { cbor } from '../../../../codecs/cbor/index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { msgpack } from '../../../../codecs/msgpack/index.ts';
import {
  readEvents,
  sequenceReader,
  sequenceWriter,
  type StreamEvent,
} from '../../../../transports/protocol/streams/index.ts';
import {
  MEDIA,
  Ticket,
  arbTicket,
  chunked,
  concat,
  expected,
  failure,
  readAll,
  stream,
  ticket,
} from './streams.case.ts';

/** What `fn` throws; fails when it throws nothing. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  expect.fail('expected an error');
}

const utf8 = new TextEncoder();

for (const { mediaType, codec } of MEDIA) {
  describe(`stream reader: ${mediaType}`, () => {
    const items = [ticket(0), ticket(1), ticket(2)];

    it('reads the items, then the clean end, or the error that ended the stream', () => {
      expect(readAll(mediaType, codec, [stream(mediaType, codec, items)])).to.deep.equal(expected(mediaType, items));
      expect(readAll(mediaType, codec, [stream(mediaType, codec, items, failure)])).to.deep.equal(
        expected(mediaType, items, failure),
      );
      expect(readAll(mediaType, codec, [stream(mediaType, codec, [])])).to.deep.equal([{ kind: 'end' }]);
      expect(readAll(mediaType, codec, [stream(mediaType, codec, [], failure)])).to.deep.equal([
        { kind: 'error', problem: failure },
      ]);
    });

    it('gives each item as soon as its bytes have come, not after the next', () => {
      const writer = sequenceWriter(mediaType, codec, Ticket);
      const reader = sequenceReader(mediaType, codec, Ticket);
      for (let i = 0; i < 3; i++) {
        reader.push(writer.item(ticket(i)));
        expect(reader.next()).to.deep.equal({ kind: 'item', value: ticket(i) });
        expect(reader.next()).to.equal(undefined);
      }
      reader.push(writer.end());
      expect(reader.next()).to.deep.equal({ kind: 'end' });
      expect(reader.items).to.equal(3);
    });

    it('reads the same events at every chunking (property)', () => {
      fc.assert(
        fc.property(
          fc.array(arbTicket, { maxLength: 6 }),
          fc.boolean(),
          fc.array(fc.nat(), { maxLength: 12 }),
          (tickets, fails, cuts) => {
            const bytes = stream(mediaType, codec, tickets, fails ? failure : undefined);
            const chunks = chunked(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            );
            expect(readAll(mediaType, codec, chunks)).to.deep.equal(
              expected(mediaType, tickets, fails ? failure : undefined),
            );
          },
        ),
        { numRuns: 200 },
      );
    });

    it('reads the same events split in two at every byte, and one byte at a time', () => {
      for (const error of [undefined, failure]) {
        const bytes = stream(mediaType, codec, items, error);
        for (let at = 0; at <= bytes.length; at++) {
          expect(readAll(mediaType, codec, chunked(bytes, [at]))).to.deep.equal(expected(mediaType, items, error));
        }
        expect(
          readAll(
            mediaType,
            codec,
            Array.from(bytes, (b) => Uint8Array.of(b)),
          ),
        ).to.deep.equal(expected(mediaType, items, error));
      }
    });

    it('reads an input cut at any byte before its end as a cut, never as an end', () => {
      for (const error of [undefined, failure]) {
        const bytes = stream(mediaType, codec, items, error);
        for (let at = 0; at < bytes.length; at++) {
          const events: StreamEvent<Ticket>[] = [];
          const e = thrown(() => {
            const reader = sequenceReader(mediaType, codec, Ticket);
            reader.push(bytes.subarray(0, at));
            reader.finish();
            for (let event = reader.next(); event !== undefined; event = reader.next()) events.push(event);
          });
          expect(e, `cut at ${at}`).to.be.instanceOf(ReadError);
          expect((e as ReadError).message).to.match(/the stream was cut/);
          expect(
            events.every((event) => event.kind === 'item'),
            `cut at ${at}`,
          ).to.equal(true);
        }
      }
    });

    it('fails a bad third item with its index at the start of the path, after giving the first two', () => {
      const writer = sequenceWriter(
        mediaType,
        codec,
        t.object({ id: t.u32(), title: t.unknown(), tags: t.array(t.string()), done: t.bool() }),
      );
      const bytes = concat([
        writer.item(ticket(0)),
        writer.item(ticket(1)),
        writer.item({ ...ticket(2), title: 42 }),
        writer.end(),
      ]);
      const reader = sequenceReader(mediaType, codec, Ticket);
      reader.push(bytes);
      expect(reader.next()).to.deep.equal({ kind: 'item', value: ticket(0) });
      expect(reader.next()).to.deep.equal({ kind: 'item', value: ticket(1) });
      const e = thrown(() => reader.next()) as ReadError;
      expect(e).to.be.instanceOf(ReadError);
      expect(e.code).to.equal('type_mismatch');
      expect(e.path).to.equal('/2/title');
      expect(e.message).to.match(/ at \/2\/title$/);
      expect(e.errors.map((x) => x.path)).to.deep.equal(['/2/title']);
    });

    it('names the item of a missing key with its index', () => {
      const writer = sequenceWriter(mediaType, codec, t.object({ id: t.u32() }));
      const reader = sequenceReader(mediaType, codec, Ticket, { opts: { errorOnUnknownKeys: false } });
      reader.push(writer.item({ id: 1 }));
      const e = thrown(() => reader.next()) as ReadError;
      expect(e.code).to.equal('missing_key');
      expect(e.path).to.equal('/0/title');
      expect(e.message).to.equal("missing required key 'title' at /0");
    });

    it('fails an unfinished item as soon as it passes maxItemBytes, without the rest of it', () => {
      const big = { ...ticket(1), title: 'x'.repeat(5000) };
      const bytes = stream(mediaType, codec, [ticket(0), big]);
      const reader = sequenceReader(mediaType, codec, Ticket, { maxItemBytes: 1000 });
      const first =
        stream(mediaType, codec, [ticket(0)]).length - sequenceWriter(mediaType, codec, Ticket).end().length;
      reader.push(bytes.subarray(0, first));
      expect(reader.next()).to.deep.equal(expected(mediaType, [ticket(0)])[0]);
      // 1100 bytes of the 5000-byte item: it fails now, before the rest has come.
      reader.push(bytes.subarray(first, first + 1100));
      const e = thrown(() => reader.next()) as ReadError;
      expect(e).to.be.instanceOf(ReadError);
      expect(e.code).to.equal('limit_exceeded');
      expect(e.path).to.equal('/1');
      expect(e.message).to.match(/maxItemBytes \(1000\)/);
    });

    // A line that never ends; an event whose data never ends; a CBOR array of indefinite length.
    // A MessagePack item announces its length, so it fails at its header (see the binary specs).
    const endless: Record<string, [Uint8Array, Uint8Array]> = {
      'application/jsonl': [utf8.encode('['), utf8.encode('1,'.repeat(50))],
      'text/event-stream': [utf8.encode('data: ['), utf8.encode('1,'.repeat(50))],
      'application/cbor-seq': [Uint8Array.of(0x9f), new Uint8Array(100).fill(0x01)],
    };
    const parts = endless[mediaType];
    if (parts !== undefined)
      it('holds no more than maxItemBytes of an endless item, fed 100 bytes at a time', () => {
        const reader = sequenceReader(mediaType, codec, t.unknown(), { maxItemBytes: 10_000 });
        reader.push(parts[0]);
        let pushed = parts[0].length;
        const e = thrown(() => {
          for (;;) {
            reader.push(parts[1]);
            pushed += parts[1].length;
            reader.next();
            if (pushed > 1_000_000) return;
          }
        }) as ReadError;
        expect(e.code).to.equal('limit_exceeded');
        expect(pushed).to.be.within(10_001, 10_000 + 100 + 16);
      });

    it('fails an item over maxItemBytes that arrives whole', () => {
      const bytes = stream(mediaType, codec, [{ ...ticket(1), title: 'x'.repeat(5000) }]);
      const e = thrown(() => readAll(mediaType, codec, [bytes], { maxItemBytes: 1000 })) as ReadError;
      expect(e.code).to.equal('limit_exceeded');
      expect(e.path).to.equal('/0');
    });

    it('takes an item of exactly maxItemBytes', () => {
      const one = stream(mediaType, codec, [ticket(7)]);
      const size =
        mediaType === 'application/jsonl'
          ? utf8.encode(json.encode(Ticket, ticket(7))).length
          : mediaType === 'text/event-stream'
            ? utf8.encode(json.encode(Ticket, ticket(7))).length + 1
            : codec.encode(Ticket, ticket(7)).length;
      expect(readAll(mediaType, codec, [one], { maxItemBytes: size })).to.deep.equal(expected(mediaType, [ticket(7)]));
    });

    it('refuses bytes after the end', () => {
      for (const error of [undefined, failure]) {
        const bytes = concat([stream(mediaType, codec, items, error), stream(mediaType, codec, [ticket(3)])]);
        const e = thrown(() => readAll(mediaType, codec, [bytes])) as ReadError;
        expect(e).to.be.instanceOf(ReadError);
        expect(e.message).to.match(/bytes follow the end of the stream/);
      }
    });

    it('reads 10,000 items in 16 KiB chunks', () => {
      const many = Array.from({ length: 10_000 }, (_, i) => ticket(i));
      const bytes = stream(mediaType, codec, many);
      const cuts: number[] = [];
      for (let at = 16384; at < bytes.length; at += 16384) cuts.push(at);
      const events = readAll(mediaType, codec, chunked(bytes, cuts));
      expect(events.length).to.equal(10_001);
      expect(events.at(-1)).to.deep.equal({ kind: 'end' });
      expect(events[9_999]).to.deep.equal(expected(mediaType, many)[9_999]);
    });

    it('reads a 200,000-byte item arriving a byte at a time (each byte scanned once)', () => {
      const big = { ...ticket(1), tags: Array.from({ length: 40_000 }, (_, i) => String(i % 1000)) };
      const bytes = stream(mediaType, codec, [big]);
      expect(bytes.length).to.be.greaterThan(100_000);
      const events = readAll(
        mediaType,
        codec,
        Array.from(bytes, (b) => Uint8Array.of(b)),
      );
      expect(events).to.deep.equal(expected(mediaType, [big]));
    });

    it('readEvents: the events of a body read chunk by chunk, then a cut as an error', async () => {
      const bytes = stream(mediaType, codec, items, failure);
      async function* body(end: number) {
        for (let at = 0; at < end; at += 7) yield bytes.slice(at, Math.min(at + 7, end));
      }
      const events: StreamEvent<Ticket>[] = [];
      for await (const event of readEvents(sequenceReader(mediaType, codec, Ticket), body(bytes.length)))
        events.push(event);
      expect(events).to.deep.equal(expected(mediaType, items, failure));
      const cut: StreamEvent<Ticket>[] = [];
      let error: unknown;
      try {
        for await (const event of readEvents(sequenceReader(mediaType, codec, Ticket), body(bytes.length - 1)))
          cut.push(event);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ReadError);
      expect(cut).to.deep.equal(expected(mediaType, items).slice(0, -1));
    });

    it('refuses push() after finish()', () => {
      const reader = sequenceReader(mediaType, codec, Ticket);
      reader.finish();
      expect(() => reader.push(Uint8Array.of(1))).to.throw(TypeError);
    });

    if (mediaType !== 'text/event-stream') {
      it('with endAtEof, reads the end of the input between items as a clean end, and inside one as a cut', () => {
        const writer = sequenceWriter(mediaType, codec, Ticket);
        const body = concat(items.map((item) => writer.item(item)));
        expect(readAll(mediaType, codec, [body], { endAtEof: true })).to.deep.equal(expected(mediaType, items));
        expect(readAll(mediaType, codec, [new Uint8Array(0)], { endAtEof: true })).to.deep.equal([{ kind: 'end' }]);
        // The end marker is taken all the same.
        expect(readAll(mediaType, codec, [stream(mediaType, codec, items)], { endAtEof: true })).to.deep.equal(
          expected(mediaType, items),
        );
        const e = thrown(() =>
          readAll(mediaType, codec, [body.subarray(0, body.length - 2)], { endAtEof: true }),
        ) as ReadError;
        expect(e.path.startsWith('/2')).to.equal(true);
        // JSON Lines takes a last line without its line feed as an item: cut, it is no JSON.
        if (mediaType === 'application/jsonl') expect(e.code).to.equal('syntax_error');
        else expect(e.message).to.match(/the stream was cut: its input ended inside item 2/);
      });
    }
  });
}

describe('stream reader: JSON Lines', () => {
  const mediaType = 'application/jsonl';

  it('reads lines ending in CRLF, and blank lines holding spaces', () => {
    const text = `${JSON.stringify(ticket(0))}\r\n${JSON.stringify(ticket(1))}\r\n \r\n\t\r\n`;
    expect(readAll(mediaType, json, [utf8.encode(text)])).to.deep.equal(expected(mediaType, [ticket(0), ticket(1)]));
  });

  it('with endAtEof, reads a last line without its line feed as an item', () => {
    const text = `${JSON.stringify(ticket(0))}\n${JSON.stringify(ticket(1))}`;
    expect(readAll(mediaType, json, [utf8.encode(text)], { endAtEof: true })).to.deep.equal(
      expected(mediaType, [ticket(0), ticket(1)]),
    );
    const e = thrown(() => readAll(mediaType, json, [utf8.encode(text)])) as ReadError;
    expect(e.message).to.match(/cut/);
  });

  it('fails a line that is no JSON with a syntax error at its index', () => {
    const text = `${JSON.stringify(ticket(0))}\n{"id":\n`;
    const e = thrown(() => readAll(mediaType, json, [utf8.encode(text)])) as ReadError;
    expect(e.code).to.equal('syntax_error');
    expect(e.path.startsWith('/1')).to.equal(true);
  });

  it('refuses an error line that is no problem document', () => {
    const e = thrown(() => readAll(mediaType, json, [utf8.encode('\n[1,2]\n')])) as ReadError;
    expect(e.code).to.equal('type_mismatch');
    expect(e.path).to.equal('/0');
    expect(e.message).to.match(/not a problem document, at \/0$/);
  });
});

describe('stream reader: Server-Sent Events', () => {
  const mediaType = 'text/event-stream';
  const read = (text: string) => readAll(mediaType, json, [utf8.encode(text)]);
  const data = (i: number) => JSON.stringify(ticket(i));

  it('reads lines ending in CR, LF or CRLF, a leading BOM, comments and fields it does not know', () => {
    const text = `\ufeff: hello\r\nretry: 10\rdata: ${data(0)}\r\rid: 9\r\nfoo: bar\ndata: ${data(1)}\n\nevent: end\ndata:\n\n`;
    expect(read(text)).to.deep.equal([
      { kind: 'item', value: ticket(0) },
      { kind: 'item', value: ticket(1), id: '9' },
      { kind: 'end' },
    ]);
  });

  it('joins data lines with line feeds, and ignores events without data and of other types', () => {
    const text = `event: end\n\nevent: progress\ndata: 1\n\ndata: {"id":0,"title":"a",\ndata: "tags":[],"done":true}\n\nevent: end\ndata:\n\n`;
    expect(read(text)).to.deep.equal([
      { kind: 'item', value: { id: 0, title: 'a', tags: [], done: true } },
      { kind: 'end' },
    ]);
  });

  it('reads a CRLF split between two chunks as one line break', () => {
    const bytes = utf8.encode(`data: ${data(0)}\r\n\r\nevent: end\r\ndata:\r\n\r\n`);
    for (let at = 0; at <= bytes.length; at++) {
      expect(readAll(mediaType, json, chunked(bytes, [at]))).to.deep.equal([
        { kind: 'item', value: ticket(0) },
        { kind: 'end' },
      ]);
    }
  });

  it('reads an event whose blank line has not come as a cut', () => {
    const e = thrown(() => read(`data: ${data(0)}\n\nevent: end\ndata:\n`)) as ReadError;
    expect(e.message).to.match(/the stream was cut/);
  });

  it('fails an event whose data passes maxItemBytes over several lines', () => {
    const line = `data: ${'x'.repeat(400)}\n`;
    const reader = sequenceReader(mediaType, json, Ticket, { maxItemBytes: 1000 });
    reader.push(utf8.encode(line + line));
    expect(reader.next()).to.equal(undefined);
    reader.push(utf8.encode(line));
    const e = thrown(() => reader.next()) as ReadError;
    expect(e.code).to.equal('limit_exceeded');
  });
});

describe('stream reader: binary sequences', () => {
  for (const [codec, mediaType] of [
    [cbor, 'application/cbor-seq'],
    [msgpack, 'application/msgpack-seq'],
  ] as const) {
    it(`${mediaType}: fails a header announcing more than maxItemBytes at once`, () => {
      // A string of 2 MiB announced: no byte of it has come.
      const head =
        codec === cbor ? Uint8Array.of(0x7a, 0x00, 0x20, 0x00, 0x00) : Uint8Array.of(0xdb, 0x00, 0x20, 0x00, 0x00);
      const reader = sequenceReader(mediaType, codec, t.string());
      reader.push(head);
      const e = thrown(() => reader.next()) as ReadError;
      expect(e.code).to.equal('limit_exceeded');
      expect(e.path).to.equal('/0');
    });

    it(`${mediaType}: fails an array announcing more elements than maxItemBytes holds bytes`, () => {
      const head =
        codec === cbor ? Uint8Array.of(0x9a, 0x00, 0x20, 0x00, 0x00) : Uint8Array.of(0xdd, 0x00, 0x20, 0x00, 0x00);
      const reader = sequenceReader(mediaType, codec, t.array(t.u8()));
      reader.push(head);
      expect((thrown(() => reader.next()) as ReadError).code).to.equal('limit_exceeded');
    });

    it(`${mediaType}: refuses nesting past maxDepth without recursing, however deep the input`, () => {
      const open = codec === cbor ? 0x81 : 0x91; // an array of one element
      const deep = new Uint8Array(1_000_000).fill(open);
      const reader = sequenceReader(mediaType, codec, t.unknown(), { maxItemBytes: 2_000_000 });
      reader.push(deep);
      const e = thrown(() => reader.next()) as ReadError;
      expect(e.code).to.equal('limit_exceeded');
      expect(e.path).to.equal('/0');
      expect(e.message).to.match(/maxDepth \(64\)/);
      // Within maxDepth it reads.
      const ok = concat([new Uint8Array(64).fill(open), Uint8Array.of(1), codec.sequenceEnd!, codec.sequenceEnd!]);
      expect(readAll(mediaType, codec, [ok], {}, t.unknown()).length).to.equal(2);
    });

    it(`${mediaType}: refuses a byte no value starts with, at the item's index`, () => {
      const writer = sequenceWriter(mediaType, codec, Ticket);
      const bad = codec === cbor ? 0x1c : 0xc1;
      const e = thrown(() =>
        readAll(mediaType, codec, [concat([writer.item(ticket(0)), Uint8Array.of(bad)])]),
      ) as ReadError;
      expect(e.code).to.equal('syntax_error');
      expect(e.path).to.equal('/1');
      expect(e.message).to.match(/starts no value \(offset 0\) at \/1$/);
    });
  }

  it('application/cbor-seq: reads indefinite lengths and tags, wherever the chunks are cut', () => {
    // [_ "ab" (_ "c" "d")] tagged 55799 (self-described CBOR), then {_ "x": 1}.
    const items = Uint8Array.of(
      0xd9,
      0xd9,
      0xf7,
      0x9f,
      0x62,
      0x61,
      0x62,
      0x7f,
      0x61,
      0x63,
      0x61,
      0x64,
      0xff,
      0xff,
      0xbf,
      0x61,
      0x78,
      0x01,
      0xff,
    );
    const bytes = concat([items, Uint8Array.of(0xf7, 0xf7)]);
    for (let at = 0; at <= bytes.length; at++) {
      expect(
        readAll('application/cbor-seq', cbor, chunked(bytes, [at]), {}, t.unknown()).map((e) =>
          e.kind === 'item' ? e.value : e.kind,
        ),
      ).to.deep.equal([['ab', 'cd'], { x: 1 }, 'end'] as never);
    }
  });
});
