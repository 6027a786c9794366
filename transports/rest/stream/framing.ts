// Provisional framings, replaced by transports/rest/streams/ once it lands.
import type { Codec } from '../../../core/codec.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { json } from '../../../codecs/json/index.ts';
import { Problem, type ProblemDocument } from '../problem.ts';
import type { StreamFraming } from './frames.ts';
import { SSE } from './media-types.ts';

const utf8 = new TextEncoder();
const bytesOf = (encoded: Uint8Array | string) => (typeof encoded === 'string' ? utf8.encode(encoded) : encoded);


export function framingFor(contentType: string, codec: Codec, item: Type, opts: Opts): StreamFraming {
  const compact = { ...opts, prettify: false };
  if (contentType === SSE) {
    return {
      contentType,
      item: (value) => utf8.encode(`data: ${json.encode(item, value as never, compact) as string}\n\n`),
      end: () => utf8.encode('event: end\ndata:\n\n'),
      error: (problem) => utf8.encode(`event: error\ndata: ${json.encode(Problem, problem as never) as string}\n\n`),
      heartbeat: () => utf8.encode(':\n\n'),
    };
  }
  if (codec === json) {
    return {
      contentType,
      item: (value) => utf8.encode(`${json.encode(item, value as never, compact) as string}\n`),
      end: () => utf8.encode('\n'),
      error: (problem: ProblemDocument) => utf8.encode(`\n${json.encode(Problem, problem as never) as string}\n`),
    };
  }
  const marker = codec.name === 'cbor' ? Uint8Array.of(0xf7) : Uint8Array.of(0xd4, 0x6c, 0x00);
  return {
    contentType,
    item: (value) => bytesOf(codec.encode(item, value as never, opts)),
    end: () => marker,
    error: (problem) => concat(marker, bytesOf(codec.encode(Problem, problem as never))),
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
