import type { Codec } from '../../core/codec.ts';
import type { Opts } from '../../core/options.ts';

/** 1 MiB: the largest request body a registry reads unless `maxBodyBytes` says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** What `onError` is told about a failure. */
export interface ErrorContext {
  /** The service method's name. */
  readonly method: string;
  /** The status the client is answered with. */
  readonly status: number;
}

/** Options of a {@link Registry}: the reading and writing options of `Opts`, plus these. */
export interface RegistryOptions extends Opts {
  /** The codecs endpoints read and write. Default `[json, msgpack, cbor]`; the first is the fallback. */
  codecs?: readonly Codec[];
  /** Sends the message of an unexpected error (answered 500) as `detail`. Default `false`. */
  exposeErrors?: boolean;
  /**
   * Told of every error a service method throws and of every result that cannot be written,
   * with the status answered. Default: 5xx errors are logged with `console.error`.
   */
  onError?: (error: unknown, context: ErrorContext) => void;
  /** Largest request body, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** Logs failures answered 5xx; the default `onError`. */
export function defaultOnError(error: unknown, context: ErrorContext): void {
  if (context.status >= 500) console.error(`lacquer: ${context.method} failed (${context.status}):`, error);
}
