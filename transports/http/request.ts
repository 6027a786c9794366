import type { IncomingHttpHeaders } from 'node:http';
import { json } from '../../codecs/json/index.ts';
import type { Opts } from '../../core/options.ts';
import type { HeaderReader } from '../rest/types.ts';
import type { Infer, Type } from '../../core/types/type.ts';

/** Node's parsed headers, readable by name as a Web `Headers` object is. */
export class NodeHeaders implements HeaderReader {
  constructor(readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
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
