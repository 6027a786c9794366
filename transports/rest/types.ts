/** Reads request headers by case-insensitive name; a Web `Headers` object is one. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * A request as every transport hands it to the registry: the body already read (and capped by
 * the transport), headers readable by name. `path` is relative to the mount prefix.
 */
export interface EndpointRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: HeaderReader;
  readonly body: Uint8Array | undefined;
}

/** An answer every transport can write: lower-case header names, a body or none. */
export interface EndpointResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string | undefined;
}

/** One endpoint: a request in, an answer out. It never rejects; failures become problem documents. */
export type Handler = (request: EndpointRequest) => Promise<EndpointResponse>;
