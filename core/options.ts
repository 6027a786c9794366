/** How input is read. Every member is optional; `{}` gives every default. */
export interface ReadOptions {
  /**
   * Which absent keys fail with `missing_key`. Default `false`: none, an absent key takes its
   * default. `true`: every non-nullable member's (the specification's rule, `requiresKey` aside),
   * a member with `.default()` included. `'unless-default'`: as `true`, except that a member with
   * `.default()` may be left out and reads as its default.
   */
  errorOnMissingKeys?: MissingKeys;
  /** An undeclared key fails with `unknown_key`. Default `true`; when `false` it is dropped. */
  errorOnUnknownKeys?: boolean;
  /**
   * Deepest nesting of arrays and objects that is read. Default {@link DEFAULT_MAX_DEPTH}. Writers
   * take it too, for what only the value bounds: recursion through `t.lazy`, and `t.unknown()`
   * values (a cyclic value fails with `limit_exceeded` instead of exhausting the stack).
   */
  maxDepth?: number;
  /** Largest input accepted, in bytes (or UTF-16 units for a string). Default {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
  /**
   * The most items one input may hold, where an item is what costs far more memory once read than
   * it takes on the wire: an array or a map (one byte of MessagePack or CBOR, two of JSON, some
   * 60 bytes of heap), a byte string (one byte, some 200 bytes of heap: it counts as 4), and an
   * entry of a `t.map` (one per key). Numbers, strings and the fields of an object do not count.
   * Over it, reading fails with `limit_exceeded` before the memory is spent, so a small input
   * cannot take gigabytes (a megabyte of `[{},{},…]` is 350,000 objects).
   *
   * Default: {@link DEFAULT_MAX_ITEMS}, raised for a larger input to one item per
   * {@link DEFAULT_BYTES_PER_ITEM} bytes of it. That takes any input holding 200,000 items or
   * fewer (100,000 records with a nested array each), and any larger one whose items average 16
   * bytes or more, which records with a few fields do: what it refuses is mostly empty
   * containers. A number given here is the limit whatever the input's size.
   *
   * Where it is counted: the MessagePack and CBOR tree parsers count what they build (containers
   * the descriptor refuses are checked but not built, so they do not count; an array longer than
   * 1,024 elements, or of indefinite length, counts 3, as it grows by pushes), and their direct
   * readers spend the same; JSON counts the arrays and objects of a text longer than twice the
   * limit before `JSON.parse` builds them, on every path, and byte strings as it reads them.
   */
  maxItems?: number;
}

/** The settings of {@link ReadOptions.errorOnMissingKeys}. */
export type MissingKeys = boolean | 'unless-default';

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
/**
 * The items ({@link ReadOptions.maxItems}) any input may hold by default, whatever its size:
 * 200,000 empty objects are some 17 MiB of heap, and take some 20 ms to build.
 */
export const DEFAULT_MAX_ITEMS = 200_000;
/**
 * Above {@link DEFAULT_MAX_ITEMS}, an input may hold one item per this many bytes of it by
 * default: a 64 MiB input may hold 4 million items, some 4 times its size in heap, so the tree
 * path reads the largest input `maxBytes` allows in about 10 times its size at most, tree and value.
 */
export const DEFAULT_BYTES_PER_ITEM = 16;
/**
 * A byte string counts as this many items: a `Uint8Array` takes 180 to 210 bytes of heap, three to
 * four times an empty object, and about 400 ns to make, ten times as long.
 */
export const BYTES_WEIGHT = 4;

/** Read options with every default filled in. */
export interface ResolvedReadOptions {
  readonly errorOnMissingKeys: MissingKeys;
  readonly errorOnUnknownKeys: boolean;
  readonly maxDepth: number;
  readonly maxBytes: number;
  /** `undefined`: the default, which depends on the input's size (see {@link itemLimit}). */
  readonly maxItems: number | undefined;
}

const DEFAULT_READ: ResolvedReadOptions = {
  errorOnMissingKeys: false,
  errorOnUnknownKeys: true,
  maxDepth: DEFAULT_MAX_DEPTH,
  maxBytes: DEFAULT_MAX_BYTES,
  maxItems: undefined,
};

/** The items an input of `size` bytes (or UTF-16 units) may hold under `maxItems` ({@link ReadOptions.maxItems}). */
export function itemLimit(maxItems: number | undefined, size: number): number {
  return maxItems ?? Math.max(DEFAULT_MAX_ITEMS, Math.floor(size / DEFAULT_BYTES_PER_ITEM));
}

/** Fills in the defaults; the common call without options allocates nothing. */
export function resolveReadOptions(opts: ReadOptions | undefined): ResolvedReadOptions {
  if (opts === undefined) return DEFAULT_READ;
  return {
    errorOnMissingKeys: opts.errorOnMissingKeys ?? DEFAULT_READ.errorOnMissingKeys,
    errorOnUnknownKeys: opts.errorOnUnknownKeys ?? DEFAULT_READ.errorOnUnknownKeys,
    maxDepth: opts.maxDepth ?? DEFAULT_READ.maxDepth,
    maxBytes: opts.maxBytes ?? DEFAULT_READ.maxBytes,
    maxItems: opts.maxItems,
  };
}
