import type { Codec } from '../../../core/codec.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
import { WriteError } from '../../../core/errors/write-error.ts';
import { encodeProblem, type ProblemDocument } from '../problem.ts';

/** UTF-8, as every text frame is written. */
export const utf8 = new TextEncoder();

/** The shared chunk text frames are written into. */
const CHUNK_BYTES = 64 * 1024;
/** A frame that may take more than this gets an array of its own rather than a chunk's room. */
const OWN_ARRAY_BYTES = CHUNK_BYTES / 4;
let chunk = new Uint8Array(CHUNK_BYTES);
let used = 0;

/**
 * `text` as UTF-8, written into a chunk shared by every text frame and returned as a view of it:
 * bytes written are never overwritten (a new chunk starts when one fills, left to the views that
 * hold it), so every frame stays valid. One `encodeInto` and one view per frame: a third of the
 * time of `TextEncoder.encode`, which allocates an array per call.
 */
export function utf8Frame(text: string): Uint8Array {
  const most = text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
  if (CHUNK_BYTES - used < most) {
    if (most > OWN_ARRAY_BYTES) return utf8.encode(text);
    chunk = new Uint8Array(CHUNK_BYTES);
    used = 0;
  }
  const start = used;
  used += utf8.encodeInto(text, chunk.subarray(start)).written;
  return chunk.subarray(start, used);
}

/**
 * The options a text frame's items are written with: `opts` without `prettify`, since an item of
 * JSON Lines or SSE is one line whatever the registry's answers look like.
 */
export function oneLine(opts: Opts | undefined): Opts | undefined {
  return opts?.prettify === true ? { ...opts, prettify: false } : opts;
}

/** A text codec's text of `value`; a codec that gives bytes cannot write a text frame. */
export function itemText(codec: Codec, type: Type, value: unknown, opts: Opts | undefined): string {
  const text = codec.encode(type, value as never, opts);
  if (typeof text !== 'string')
    throw new TypeError(
      `lacquer: the ${codec.name} codec writes bytes; a text stream (JSON Lines, SSE) needs a text codec`,
    );
  return text;
}

/** A problem document as text, for a text frame. */
export function problemText(codec: Codec, doc: ProblemDocument): string {
  const text = encodeProblem(codec, doc);
  if (typeof text !== 'string')
    throw new TypeError(
      `lacquer: the ${codec.name} codec writes bytes; a text stream (JSON Lines, SSE) needs a text codec`,
    );
  return text;
}

/** A text that is blank (empty, or only spaces, tabs, carriage returns and line feeds): the end marker of JSON Lines. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

/** The error for an item's text that its frame cannot hold. */
export function unframable(what: string): WriteError {
  return new WriteError('invalid_format', '', `a stream's item cannot be written: ${what}`);
}
