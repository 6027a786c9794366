import type { IncomingHttpHeaders } from 'node:http';
import { json } from '../../codecs/json/index.ts';
import type { Opts } from '../../core/options.ts';
import { isAsciiName } from '../protocol/ascii.ts';
import type { HeaderReader } from '../protocol/types.ts';
import type { Infer, Type } from '../../core/descriptors/type.ts';

/**
 * Headers Node keeps only the first line of (`req.headers` drops the rest). A second line may be
 * what a proxy in front believes, so these are read from every line, as a Web `Headers` does.
 */
const FIRST_LINE_ONLY = new Set([
  'authorization',
  'proxy-authorization',
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'referer',
  'from',
  'age',
  'etag',
  'expires',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'retry-after',
  'server',
]);

/** Node's parsed headers, readable by name as a Web `Headers` object is: repeated lines joined by `, `. */
export class NodeHeaders implements HeaderReader {
  constructor(
    readonly raw: IncomingHttpHeaders,
    /** `req.rawHeaders`: name, value, name, value, ... */
    readonly lines: readonly string[] = [],
  ) {}

  get(name: string): string | null {
    // Node's keys are lower-case, as the names lacquer asks for are: those are looked up as they
    // are, without a lower-case copy of each.
    const value: unknown = this.raw[name];
    if (value === undefined) return hasUpperCase(name) ? this.get(name.toLowerCase()) : null;
    if (typeof value === 'string') return FIRST_LINE_ONLY.has(name) ? this.#allLines(name, value) : value;
    // Node's object has a prototype: `constructor` or `__proto__` must not read as a header.
    return Array.isArray(value) ? value.join(', ') : null;
  }

  forEach(visit: (value: string, name: string) => void): void {
    for (let i = 0; i + 1 < this.lines.length; i += 2) visit(this.lines[i + 1]!, this.lines[i]!.toLowerCase());
  }

  /**
   * Every line of `key` joined, or `first` when there is one line (the usual case: found by
   * comparing names in place, without a lower-case copy of each).
   */
  #allLines(key: string, first: string): string {
    let joined: string | undefined;
    let seen = 0;
    for (let i = 0; i + 1 < this.lines.length; i += 2) {
      if (!isAsciiName(this.lines[i]!, this.lines[i]!.length, key)) continue;
      joined = seen++ === 0 ? this.lines[i + 1]! : `${joined}, ${this.lines[i + 1]!}`;
    }
    return seen > 1 ? joined! : first;
  }
}

/** Whether `name` has an ASCII upper-case letter (header names are ASCII tokens). */
function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return true;
  }
  return false;
}

const utf8 = new TextDecoder('utf-8');

/** A request as a route handler sees it: the body already read, `:param` values decoded. */
export class HttpRequest {
  constructor(
    /** The verb: `'GET'`. */
    readonly method: string,
    /** The decoded path: `/users/42`. */
    readonly path: string,
    /** The values of the route's `:param` segments, decoded. */
    readonly params: Readonly<Record<string, string>>,
    readonly query: URLSearchParams,
    readonly headers: NodeHeaders,
    /** The body, empty when there is none. */
    readonly body: Uint8Array,
    /** The id in the answer's `x-request-id`: the client's when acceptable, else a generated one. */
    readonly requestId: string,
    /** The client's address, as `trustProxy` decides. */
    readonly ip: string | undefined,
  ) {}

  /** One header by case-insensitive name. */
  header(name: string): string | undefined {
    return this.headers.get(name) ?? undefined;
  }

  /** The body as UTF-8 text. */
  text(): string {
    return utf8.decode(this.body);
  }

  /** The body read as JSON by `type`, with lacquer's rules; a `ReadError` thrown here is answered 400. */
  json<T extends Type>(type: T, opts?: Opts): Infer<T> {
    return json.decode(type, this.body, opts);
  }
}
