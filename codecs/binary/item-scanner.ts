import type { ItemScanner } from '../../core/codec.ts';
import { Failure } from '../../core/errors/failure.ts';
import { ReadError } from '../../core/errors/read-error.ts';
import { nestingTooDeep } from '../../core/read/container-failures.ts';

/** A head holds a value without parts (a number, a string: its bytes are its `payload`). */
export const VALUE = 0;
/** A head opens an array or a map of `children` values (-1: up to a break). */
export const CONTAINER = 1;
/** A head opens an indefinite-length string: definite strings up to a break (CBOR). */
export const CHUNKS = 2;
/** A head tags the value after it, and is no value itself (CBOR). */
export const TAG = 3;
/** A break ends the indefinite-length item it is in (CBOR). */
export const BREAK = 4;

/** What a format's {@link HeadReader} found at one offset. */
export interface Head {
  kind: typeof VALUE | typeof CONTAINER | typeof CHUNKS | typeof TAG | typeof BREAK;
  /** For `VALUE`: the bytes after the head that belong to the value. */
  payload: number;
  /** For `CONTAINER`: the values it holds (a map's keys and values both), -1 up to a break. */
  children: number;
  /** For `VALUE`: whether it is a definite string, which may be a chunk of an indefinite one (CBOR). */
  chunk: boolean;
}

/**
 * Reads the head at `p` into `head` and returns its length in bytes, 0 when `bytes` ends (at
 * `end`) inside it, -1 when no head starts with the byte at `p` (a reserved one).
 */
export type HeadReader = (head: Head, bytes: Uint8Array, p: number, end: number) => number;

/** Levels of indefinite-length items: a container, or a string's chunks. */
const INDEFINITE = -1;
const STRING_CHUNKS = -2;

/**
 * Finds where each value of a MessagePack or CBOR stream ends from its heads alone: a string's
 * bytes are stepped over (they need not have arrived yet), a container's values counted. What it
 * keeps between calls is the offset of the next head and, per open container, how many values it
 * still holds: no recursion, a stack no deeper than `maxDepth`, each head read once.
 */
export class BinaryItemScanner implements ItemScanner {
  needed = 0;
  /** The next head, relative to the value's start. */
  private at = 0;
  /** Per open level (the root first, expecting one value): values still expected, or an indefinite level. */
  private readonly counts: number[] = [1];
  /** The values the open definite levels still expect, each at least one byte. */
  private pending = 1;
  private readonly head: Head = { kind: VALUE, payload: 0, children: 0, chunk: false };

  constructor(
    private readonly readHead: HeadReader,
    /** `MessagePack`, `CBOR`: for messages. */
    private readonly format: string,
    private readonly maxDepth: number,
  ) {}

  scan(bytes: Uint8Array, start: number, end: number): number | undefined {
    const counts = this.counts;
    const head = this.head;
    let p = start + this.at;
    try {
      while (counts.length > 0 && p < end) {
        const size = this.readHead(head, bytes, p, end);
        if (size === 0) break;
        if (size < 0) this.fail(`0x${bytes[p]!.toString(16).padStart(2, '0')} starts no value`, p - start);
        const top = counts.length - 1;
        const level = counts[top]!;
        if (head.kind === BREAK) {
          if (level >= 0) this.fail('unexpected break (0xff) outside an indefinite-length item', p - start);
          counts.pop();
          p += size;
        } else if (level === STRING_CHUNKS && (head.kind !== VALUE || !head.chunk)) {
          this.fail('a chunk of an indefinite-length string must be a definite string of the same type', p - start);
        } else if (head.kind === TAG) {
          p += size;
          continue;
        } else {
          if (level > 0) {
            counts[top] = level - 1;
            this.pending--;
          }
          p += size + (head.kind === VALUE ? head.payload : 0);
          if (head.kind === CHUNKS) {
            counts.push(STRING_CHUNKS);
            continue;
          }
          if (head.kind === CONTAINER) {
            // The containers open with this one; the root value's slot is no container.
            if (counts.length > this.maxDepth) throw nestingTooDeep(this.maxDepth);
            if (head.children !== 0) {
              counts.push(head.children < 0 ? INDEFINITE : head.children);
              if (head.children > 0) this.pending += head.children;
              continue;
            }
          }
        }
        while (counts.length > 0 && counts[counts.length - 1] === 0) counts.pop();
      }
    } catch (e) {
      this.reset();
      throw e instanceof Failure ? ReadError.from(e) : e;
    }
    if (counts.length === 0 && p <= end) {
      this.reset();
      return p;
    }
    this.at = p - start;
    // An indefinite level expects a break at least.
    this.needed = this.at + (counts.length === 0 ? 0 : Math.max(this.pending, 1));
    return undefined;
  }

  private reset(): void {
    this.at = 0;
    this.counts.length = 0;
    this.counts.push(1);
    this.pending = 1;
    this.needed = 0;
  }

  private fail(what: string, at: number): never {
    throw new Failure('syntax_error', `invalid ${this.format}: ${what} (offset ${at})`);
  }
}
