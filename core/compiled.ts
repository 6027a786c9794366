// The one cache of compiled readers and writers. Everything lacquer compiles for a descriptor (the
// read pass, each codec's writers and direct readers, Standard Schema's validator) is kept with
// that descriptor, under a key naming what it is and the options it was compiled for. No code
// generation here (`core/codegen/` keeps the generated source): Standard Schema uses this module
// with closures alone.
import { resolveReadOptions, type MissingKeys, type Opts, type ReadOptions } from './options.ts';
import type { Type } from './descriptors/type.ts';

/** Each descriptor's artefacts under their keys: what each is and the options it depends on. */
const byType = new WeakMap<Type, Map<string, unknown>>();

/** The artefact of `type` under `key`, compiled on first use and kept with the descriptor (it goes when the descriptor goes). */
export function compiled<A>(type: Type, key: string, compile: () => A): A {
  let artefacts = byType.get(type);
  if (artefacts === undefined) byType.set(type, (artefacts = new Map()));
  if (artefacts.has(key)) return artefacts.get(key) as A;
  const artefact = compile();
  artefacts.set(key, artefact);
  return artefact;
}

/** The read options a decode plan keeps (`maxItems` comes with each call), resolved, as a key. */
export function readOptionsKey(opts: ReadOptions | undefined): string {
  const o = resolveReadOptions(opts);
  return `${readersKey(o)} ${o.maxBytes}`;
}

/** The read options a compiled reader depends on (`maxBytes` and `maxItems` are checked apart), as a key. */
export function readersKey(o: {
  readonly errorOnMissingKeys: MissingKeys;
  readonly errorOnUnknownKeys: boolean;
  readonly maxDepth: number;
}): string {
  // Each setting of errorOnMissingKeys compiles readers of its own.
  const missing = o.errorOnMissingKeys === 'unless-default' ? 'd' : +!!o.errorOnMissingKeys;
  return `${missing}${+o.errorOnUnknownKeys} ${o.maxDepth}`;
}

/** One call's options, as `CompiledCache` remembers them with the artefact they led to. */
interface Memo<A> {
  /** The call had no options: most calls, compared with one test. */
  readonly bare: boolean;
  readonly errorOnMissingKeys: MissingKeys | undefined;
  readonly errorOnUnknownKeys: boolean | undefined;
  readonly maxDepth: number | undefined;
  readonly maxBytes: number | undefined;
  readonly maxItems: number | undefined;
  readonly prettify: boolean | undefined;
  readonly artefact: A;
}

/** Whether `opts` are the options `memo` was made for, member by member. */
function sameOptions(memo: Memo<unknown>, opts: Opts | undefined): boolean {
  if (opts === undefined) return memo.bare;
  return (
    !memo.bare &&
    opts.errorOnMissingKeys === memo.errorOnMissingKeys &&
    opts.errorOnUnknownKeys === memo.errorOnUnknownKeys &&
    opts.maxDepth === memo.maxDepth &&
    opts.maxBytes === memo.maxBytes &&
    opts.maxItems === memo.maxItems &&
    opts.prettify === memo.prettify
  );
}

/**
 * One operation's artefacts (`json` decoding, `msgpack` encoding, …) by descriptor and options,
 * with the last call remembered overall and per descriptor: a codec called again with the same
 * descriptor and options (a loop, a server answering one route) pays a few comparisons, and one
 * answering several routes in turn a `WeakMap` lookup, not a lookup by key. The options are
 * compared member by member, so a mutated options object is never served stale: every member of
 * `Opts` is compared (a new option must be added here), and one that does not matter to the
 * artefact costs at most a lookup when it changes.
 */
export class CompiledCache<A> {
  // Private names (`#`), which minifiers shorten: this ships in the browser client.
  readonly #name: string;
  readonly #keyOf: (opts: Opts | undefined) => string;
  readonly #compile: (type: Type, opts: Opts | undefined) => A;
  readonly #byType = new WeakMap<Type, Memo<A>>();
  #type: Type | undefined = undefined;
  #last: Memo<A> | undefined = undefined;

  /**
   * @param name Names the artefacts in the descriptor's cache: `json-decode`, `read-binary`, ….
   * @param keyOf The options the artefact depends on, as a key; called only when no remembered call matches.
   * @param compile Compiles the artefact; called once per descriptor and key.
   */
  constructor(
    name: string,
    keyOf: (opts: Opts | undefined) => string,
    compile: (type: Type, opts: Opts | undefined) => A,
  ) {
    this.#name = name;
    this.#keyOf = keyOf;
    this.#compile = compile;
  }

  /** The artefact for `type` and `opts`, compiled on first use. */
  get(type: Type, opts: Opts | undefined): A {
    const last = this.#last;
    if (type === this.#type && sameOptions(last!, opts)) return last!.artefact;
    let memo = this.#byType.get(type);
    if (memo === undefined || !sameOptions(memo, opts)) {
      memo = {
        bare: opts === undefined,
        errorOnMissingKeys: opts?.errorOnMissingKeys,
        errorOnUnknownKeys: opts?.errorOnUnknownKeys,
        maxDepth: opts?.maxDepth,
        maxBytes: opts?.maxBytes,
        maxItems: opts?.maxItems,
        prettify: opts?.prettify,
        artefact: compiled(type, `${this.#name} ${this.#keyOf(opts)}`, () => this.#compile(type, opts)),
      };
      this.#byType.set(type, memo);
    }
    this.#type = type;
    this.#last = memo;
    return memo.artefact;
  }
}
