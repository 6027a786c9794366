// The stream writers, read back by implementations we did not write: line splitting and
// JSON.parse for JSON Lines, eventsource-parser for SSE, cbor-x's decodeMultiple for CBOR
// sequences, msgpackr's unpackMultiple for MessagePack sequences. And the end markers never
// taken for an item: no value any descriptor writes is one.
import { expect } from 'chai';
import fc from 'fast-check';
import { decodeMultiple } from 'cbor-x';
import { unpackMultiple } from 'msgpackr';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { WriteError, t, type Codec } from '../../../../index.ts';
import { cbor } from '../../../../codecs/cbor/index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { msgpack } from '../../../../codecs/msgpack/index.ts';
import { sequenceCodec, sequenceReader, sequenceWriter } from '../../../../transports/protocol/streams/index.ts';
import { arbTyped } from '../../../support/arbitraries.ts';
import { MEDIA, Ticket, arbTicket, concat, failure, stream, ticket } from './streams.case.ts';

const text = new TextDecoder();

/** The lines of a JSON Lines stream, each parsed by JSON.parse; a blank line as `'<blank>'`. */
function jsonLines(bytes: Uint8Array): unknown[] {
  const lines = text.decode(bytes).split('\n');
  expect(lines.pop(), 'the stream ends with a line feed').to.equal('');
  return lines.map((line) => (line.trim() === '' ? '<blank>' : JSON.parse(line)));
}

function sse(bytes: Uint8Array): { events: EventSourceMessage[]; comments: string[] } {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (e) => events.push(e),
    onComment: (c) => comments.push(c),
    onError: (e) => expect.fail(String(e)),
  });
  parser.feed(text.decode(bytes));
  return { events, comments };
}

describe('stream writers, read by others', () => {
  const items = [ticket(0), ticket(1), ticket(2)];

  it('JSON Lines: one line of JSON per item, then a blank line and a blank line (clean) or the problem document', () => {
    expect(jsonLines(stream('application/jsonl', json, items))).to.deep.equal([...items, '<blank>', '<blank>']);
    expect(jsonLines(stream('application/jsonl', json, items, failure))).to.deep.equal([...items, '<blank>', failure]);
  });

  it('JSON Lines: any tickets, read by line splitting and JSON.parse (property)', () => {
    fc.assert(
      fc.property(fc.array(arbTicket, { maxLength: 8 }), (tickets) => {
        expect(jsonLines(stream('application/jsonl', json, tickets))).to.deep.equal([...tickets, '<blank>', '<blank>']);
      }),
    );
  });

  it('SSE: message events whose data is the JSON (with their id), an end event, an error event, comments', () => {
    const clean = sse(stream('text/event-stream', json, items));
    expect(clean.events.map((e) => [e.event, e.id, e.data === '' ? '' : JSON.parse(e.data)])).to.deep.equal([
      [undefined, 'id-0', items[0]],
      [undefined, undefined, items[1]],
      [undefined, 'id-2', items[2]],
      ['end', undefined, ''],
    ]);
    expect(clean.comments).to.deep.equal(['']);
    const failed = sse(stream('text/event-stream', json, items, failure));
    expect(failed.events.at(-1)!.event).to.equal('error');
    expect(JSON.parse(failed.events.at(-1)!.data)).to.deep.equal(failure);
  });

  it('SSE: any tickets, read by eventsource-parser (property)', () => {
    fc.assert(
      fc.property(fc.array(arbTicket, { maxLength: 8 }), (tickets) => {
        const { events } = sse(stream('text/event-stream', json, tickets));
        expect(events.slice(0, -1).map((e) => JSON.parse(e.data))).to.deep.equal(tickets);
        expect(events.at(-1)!.event).to.equal('end');
      }),
    );
  });

  it('CBOR sequences: the items, then undefined and undefined (clean) or the problem document, by cbor-x', () => {
    expect(decodeMultiple(stream('application/cbor-seq', cbor, items))).to.deep.equal([...items, undefined, undefined]);
    expect(decodeMultiple(stream('application/cbor-seq', cbor, items, failure))).to.deep.equal([
      ...items,
      undefined,
      failure,
    ]);
    fc.assert(
      fc.property(fc.array(arbTicket, { maxLength: 8 }), (tickets) => {
        expect(decodeMultiple(stream('application/cbor-seq', cbor, tickets))).to.deep.equal([
          ...tickets,
          undefined,
          undefined,
        ]);
      }),
    );
  });

  it('MessagePack sequences: the items, then undefined and undefined (clean) or the problem document, by msgpackr', () => {
    expect(unpackMultiple(stream('application/msgpack-seq', msgpack, items))).to.deep.equal([
      ...items,
      undefined,
      undefined,
    ]);
    expect(unpackMultiple(stream('application/msgpack-seq', msgpack, items, failure))).to.deep.equal([
      ...items,
      undefined,
      failure,
    ]);
    fc.assert(
      fc.property(fc.array(arbTicket, { maxLength: 8 }), (tickets) => {
        expect(unpackMultiple(stream('application/msgpack-seq', msgpack, tickets))).to.deep.equal([
          ...tickets,
          undefined,
          undefined,
        ]);
      }),
    );
  });

  it('writes no item as an end marker: no value of any descriptor starts as one (property)', () => {
    fc.assert(
      fc.property(arbTyped, ({ type, value }) => {
        for (const { mediaType, codec } of MEDIA) {
          let bytes: Uint8Array;
          try {
            bytes = sequenceWriter(mediaType, codec, type).item(value as never);
          } catch (e) {
            // Values some codec cannot write (a lone surrogate in MessagePack text, say) are no items.
            if (e instanceof WriteError) continue;
            throw e;
          }
          const end = codec.sequenceEnd;
          if (end === undefined) {
            const line = text.decode(bytes);
            expect(line.trim(), mediaType).to.not.equal('');
            expect(line.endsWith('\n')).to.equal(true);
            expect(line.slice(0, mediaType === 'text/event-stream' ? -2 : -1)).to.not.match(/[\r\n]/);
          } else {
            expect(Array.from(bytes.subarray(0, end.length)), mediaType).to.not.deep.equal(Array.from(end));
          }
          // And the reader gives it back as an item, followed by the end.
          const reader = sequenceReader(mediaType, codec, type);
          reader.push(concat([bytes, sequenceWriter(mediaType, codec, type).end()]));
          expect(reader.next()?.kind).to.equal('item');
          expect(reader.next()).to.deep.equal({ kind: 'end' });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives each part fresh or never-overwritten bytes', () => {
    for (const { mediaType, codec } of MEDIA) {
      const writer = sequenceWriter(mediaType, codec, Ticket);
      const first = writer.item(ticket(0));
      const copy = first.slice();
      for (let i = 1; i < 2000; i++) writer.item(ticket(i));
      expect(first).to.deep.equal(copy);
      const end = writer.end();
      end.fill(0);
      expect(writer.end()).to.not.deep.equal(end);
    }
  });

  it('SSE: a heartbeat is a comment; other media types have none', () => {
    expect(text.decode(sequenceWriter('text/event-stream', json, Ticket).heartbeat()!)).to.equal(':\n');
    for (const mediaType of ['application/jsonl', 'application/cbor-seq', 'application/msgpack-seq']) {
      expect(sequenceWriter(mediaType, sequenceCodec(mediaType, [json, cbor, msgpack])!, Ticket).heartbeat()).to.equal(
        undefined,
      );
    }
  });

  it('SSE: refuses an id holding a line break or NUL', () => {
    const writer = sequenceWriter('text/event-stream', json, Ticket);
    for (const id of ['a\nb', 'a\rb', 'a\0b']) expect(() => writer.item(ticket(0), id)).to.throw(WriteError, /SSE id/);
    expect(text.decode(writer.item(ticket(0), 'a b'))).to.match(/^id: a b\ndata: /);
  });

  it('refuses the text of a user codec that would break the frame', () => {
    const lines = (out: string): Codec => ({ ...json, name: 'lines', encode: () => out as never });
    for (const [out, why] of [
      ['1\n2', /line feed/],
      ['', /blank/],
      ['  ', /blank/],
    ] as const) {
      expect(() => sequenceWriter('application/jsonl', lines(out), t.u8()).item(1)).to.throw(WriteError, why);
    }
    expect(() => sequenceWriter('text/event-stream', lines('1\r2'), t.u8()).item(1)).to.throw(WriteError, /line break/);
  });

  it('refuses a binary item that a user codec writes as the end marker', () => {
    const odd: Codec = { ...cbor, name: 'odd', encode: () => Uint8Array.of(0xf7) };
    expect(() => sequenceWriter('application/cbor-seq', odd, t.u8()).item(1)).to.throw(
      WriteError,
      /end of the sequence/,
    );
  });

  it('writes what the item descriptor writes, and fails as the codec does on a value that does not fit', () => {
    for (const { mediaType, codec } of MEDIA) {
      expect(() => sequenceWriter(mediaType, codec, Ticket).item({ ...ticket(0), id: -1 })).to.throw(WriteError);
    }
  });
});

describe('stream media types and codecs', () => {
  it('finds the codec of each media type, parameters and case aside', () => {
    const codecs = [json, cbor, msgpack];
    expect(sequenceCodec('application/jsonl', codecs)).to.equal(json);
    expect(sequenceCodec('Text/Event-Stream; charset=utf-8', codecs)).to.equal(json);
    expect(sequenceCodec('application/cbor-seq', codecs)).to.equal(cbor);
    expect(sequenceCodec('application/msgpack-seq', codecs)).to.equal(msgpack);
    expect(sequenceCodec('application/json', codecs)).to.equal(undefined);
    expect(sequenceCodec('text/event-stream', [cbor, msgpack])).to.equal(undefined);
    expect(sequenceCodec('nonsense', codecs)).to.equal(undefined);
  });

  it('refuses a codec without a sequence type (406 for its streams), or for another media type', () => {
    const plain: Codec = {
      name: 'plain',
      contentTypes: ['text/plain'],
      encode: () => '',
      decode: () => undefined as never,
    };
    expect(sequenceCodec('text/event-stream', [plain])).to.equal(undefined);
    expect(() => sequenceWriter('application/jsonl', plain, t.u8())).to.throw(TypeError, /plain codec/);
    expect(() => sequenceWriter('text/event-stream', cbor, t.u8())).to.throw(TypeError);
    expect(() => sequenceReader('application/cbor-seq', json, t.u8())).to.throw(TypeError);
    expect(() => sequenceReader('application/jsonl', json, t.u8(), { maxItemBytes: 0 })).to.throw(RangeError);
  });
});
