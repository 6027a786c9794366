import { Failure } from '../../core/errors/failure.ts';
import { itemLimit } from '../../core/options.ts';
import { nestingTooDeep } from '../../core/read/container-failures.ts';
import { RawNumber } from '../../core/kinds/raw-number.ts';
import { setEntry } from '../../core/util/set-entry.ts';

/**
 * Refuses, as `limit_exceeded`, a text holding more arrays and objects than `maxItems` allows
 * (see `ReadOptions.maxItems`), before `JSON.parse` builds them: `JSON.parse` builds its whole tree
 * natively, and a megabyte of `[{},{},…]` is 350,000 objects, 22 MB of heap, whatever the
 * descriptor. Each array or object takes two characters at least, so a text no longer than twice
 * the limit cannot hold too many and is not looked at: nearly every input costs one comparison.
 * In a longer one, `indexOf` first counts every `{` and `[` (2% of what `JSON.parse` takes on a
 * 5 MB array of records); only when those are too many are they counted again outside strings,
 * up to the first one over the limit. Malformed text is left to `JSON.parse`, which reports it.
 */
export function checkJsonItems(text: string, maxItems: number | undefined): void {
  const n = text.length;
  const limit = itemLimit(maxItems, n);
  if (n <= 2 * limit) return;
  // Every `{` and `[`, those in strings too, found by `indexOf` (a fast search of the whole text):
  // when even these are few enough, so are the arrays and objects.
  let count = 0;
  for (let i = text.indexOf('{'); i >= 0 && count <= limit; i = text.indexOf('{', i + 1)) count++;
  for (let i = text.indexOf('['); i >= 0 && count <= limit; i = text.indexOf('[', i + 1)) count++;
  if (count <= limit) return;
  count = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // To the closing quote: one not escaped, that is preceded by an even run of backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return;
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c /* \ */) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if ((c === 0x7b /* { */ || c === 0x5b) /* [ */ && ++count > limit) {
      throw new Failure(
        'limit_exceeded',
        `the input holds more than ${limit} items (arrays and objects): over maxItems`,
      );
    }
  }
}

/**
 * A JSON parser that keeps every integer exact: plain integers a `number` cannot hold become
 * bigints, integral values written with a fraction or exponent become `RawNumber`s.
 * It is the slow path, taken only when the descriptor has 64-bit members and the text may hold
 * such a number; it builds the same tree as `JSON.parse` otherwise. Nesting beyond `maxDepth`
 * fails as `limit_exceeded`, so its recursion is bounded.
 */
export function parseExact(text: string, maxDepth: number): unknown {
  const parser = new ExactParser(text, maxDepth);
  parser.skipSpace();
  const value = parser.value(0);
  parser.skipSpace();
  if (parser.pos !== text.length) parser.fail('unexpected data after the JSON value');
  return value;
}

class ExactParser {
  pos = 0;
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  fail(what: string): never {
    throw new Failure('syntax_error', `invalid JSON: ${what} (position ${this.pos})`);
  }

  skipSpace(): void {
    const s = this.text;
    let c = s.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++this.pos);
  }

  value(depth: number): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b /* { */) return this.object(depth + 1);
    if (c === 0x5b /* [ */) return this.array(depth + 1);
    if (c === 0x22 /* " */) return this.string();
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) return this.number();
    if (this.text.startsWith('true', this.pos)) return ((this.pos += 4), true);
    if (this.text.startsWith('false', this.pos)) return ((this.pos += 5), false);
    if (this.text.startsWith('null', this.pos)) return ((this.pos += 4), null);
    return this.fail(
      Number.isNaN(c) ? 'unexpected end of input' : `unexpected character ${JSON.stringify(this.text[this.pos])}`,
    );
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) throw nestingTooDeep(this.maxDepth);
    this.pos++;
    this.skipSpace();
  }

  private object(depth: number): Record<string, unknown> {
    this.enter(depth);
    const out: Record<string, unknown> = {};
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) return (this.pos++, out);
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a string key');
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a /* : */) this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      const value = this.value(depth);
      setEntry(out, key, value);
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return out;
      if (c !== 0x2c /* , */) this.pos--, this.fail("expected ',' or '}'");
      this.skipSpace();
    }
  }

  private array(depth: number): unknown[] {
    this.enter(depth);
    const out: unknown[] = [];
    if (this.text.charCodeAt(this.pos) === 0x5d /* ] */) return (this.pos++, out);
    for (;;) {
      out.push(this.value(depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return out;
      if (c !== 0x2c) this.pos--, this.fail("expected ',' or ']'");
      this.skipSpace();
    }
  }

  private string(): string {
    const s = this.text;
    const start = this.pos;
    let escaped = false;
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        if (!escaped) return s.slice(start + 1, i);
        try {
          return JSON.parse(s.slice(start, i + 1)) as string;
        } catch {
          this.pos = start;
          return this.fail('invalid escape in string');
        }
      }
      if (c === 0x5c /* \ */) (escaped = true), i++;
      else if (c < 0x20) (this.pos = i), this.fail('control character in string');
    }
    this.pos = s.length;
    return this.fail('unterminated string');
  }

  private number(): number | bigint | RawNumber {
    const s = this.text;
    const start = this.pos;
    let i = start;
    if (s.charCodeAt(i) === 0x2d /* - */) i++;
    const intStart = i;
    if (s.charCodeAt(i) === 0x30 /* 0 */) i++;
    else while (isDigit(s.charCodeAt(i))) i++;
    if (i === intStart) return this.fail('invalid number');
    let integral = true;
    if (s.charCodeAt(i) === 0x2e /* . */) {
      integral = false;
      const fracStart = ++i;
      while (isDigit(s.charCodeAt(i))) i++;
      if (i === fracStart) return ((this.pos = i), this.fail('invalid number'));
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45 /* e E */) {
      integral = false;
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      const expStart = i;
      while (isDigit(s.charCodeAt(i))) i++;
      if (i === expStart) return ((this.pos = i), this.fail('invalid number'));
    }
    this.pos = i;
    const token = s.slice(start, i);
    // Up to 15 digits every integer is exact as a number; longer plain integers become bigints.
    if (integral) return i - intStart <= 15 ? Number(token) : exactInteger(token);
    const n = Number(token);
    // A fraction or exponent whose value is an integer beyond 2^53 keeps its text for 64-bit readers.
    return Number.isInteger(n) && !Number.isSafeInteger(n) ? new RawNumber(token) : n;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A plain integer token: a number when that is exact, else a bigint. */
function exactInteger(token: string): number | bigint {
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : BigInt(token);
}
