/** How input is read. Every member is optional; `{}` gives every default. */
export interface ReadOptions {
  /** A required key that is absent fails with `missing_key`. Default `false`: it takes its default. */
  errorOnMissingKeys?: boolean;
  /** An undeclared key fails with `unknown_key`. Default `true`; when `false` it is dropped. */
  errorOnUnknownKeys?: boolean;
  /** Deepest nesting of arrays and objects that is read. Default {@link DEFAULT_MAX_DEPTH}. */
  maxDepth?: number;
  /** Largest input accepted, in bytes (or UTF-16 units for a string). Default {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
}

/** How values are written. */
export interface WriteOptions {
  /** JSON is indented by two spaces. Default `false`. */
  prettify?: boolean;
}

/** `Opts`: the options a registry and every codec take, a plain object. */
export interface Opts extends ReadOptions, WriteOptions {}

export const DEFAULT_MAX_DEPTH = 64;
/** 64 MiB: a codec reads whole documents in memory; transports cap bodies far lower. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Read options with every default filled in. */
export interface ResolvedReadOptions {
  readonly errorOnMissingKeys: boolean;
  readonly errorOnUnknownKeys: boolean;
  readonly maxDepth: number;
  readonly maxBytes: number;
}

const DEFAULT_READ: ResolvedReadOptions = {
  errorOnMissingKeys: false,
  errorOnUnknownKeys: true,
  maxDepth: DEFAULT_MAX_DEPTH,
  maxBytes: DEFAULT_MAX_BYTES,
};

/** Fills in the defaults; the common call without options allocates nothing. */
export function resolveReadOptions(opts: ReadOptions | undefined): ResolvedReadOptions {
  if (opts === undefined) return DEFAULT_READ;
  return {
    errorOnMissingKeys: opts.errorOnMissingKeys ?? DEFAULT_READ.errorOnMissingKeys,
    errorOnUnknownKeys: opts.errorOnUnknownKeys ?? DEFAULT_READ.errorOnUnknownKeys,
    maxDepth: opts.maxDepth ?? DEFAULT_READ.maxDepth,
    maxBytes: opts.maxBytes ?? DEFAULT_READ.maxBytes,
  };
}
