// The one place that chooses between generated code and closures. Every reader and writer has a
// fast path (generated JavaScript, or for binary direct readers closures where `new Function` is
// forbidden) that handles the common input and bails (throws BAIL) on anything else, and a path
// that takes any input and gives the exact value or error. `fastPath` builds the first, names it
// (`//# sourceURL=lacquer/<codec>/<Name>.js`), keeps its source for `generatedSource`, and runs
// the second whenever the first bails.
import { Failure } from '../errors/failure.ts';
import type { Type } from '../descriptors/type.ts';
import { remember } from '../util/remember.ts';
import {
  BAIL,
  CODE_GENERATION_REFUSED,
  Constants,
  buildFunction,
  buildingAs,
  canGenerateCode,
  type Factory,
} from './codegen.ts';

/** What `fastPath` is given. `F` takes one or two arguments (a value; or a sink and a value). */
export interface FastPathOptions<F> {
  /**
   * What the code does: `read` (the read pass), `json`, `msgpack`, `cbor` (writers),
   * `json-direct`, `msgpack-direct`, `cbor-direct` (direct readers). Names the generated code.
   */
  readonly codec: string;
  /** The descriptor the code is for; its `name` (else its kind) names the generated code. */
  readonly type: Type;
  /** Generates the fast path with `buildFunction`; `undefined` where there is none for this descriptor. */
  readonly generate: () => F | undefined;
  /** Where code cannot be generated: the fast path made of closures, when there is one. */
  readonly fastClosure?: () => F;
  /**
   * Takes any input and gives the exact value or error; runs whenever the fast path bails. Its
   * declared parameters (`length`: one, or two for a sink and a value) are the ones the fast path
   * is called with.
   */
  readonly fallback: F;
}

/**
 * The function to call: the generated fast path, which hands any input it bails on to `fallback`;
 * where code generation is unavailable, the closure fast path or `fallback` alone. A generator that
 * throws while building, and generated code that throws something other than BAIL or a `Failure`
 * where `fallback` answers, are reported once (see `onGeneratedCodeError`); `fallback` answers.
 */
export function fastPath<F>(options: FastPathOptions<F>): F {
  const { codec, type } = options;
  const fallback = options.fallback as unknown as Fn;
  const closurePath = () => {
    const fast = options.fastClosure?.() as Fn | undefined;
    return (fast === undefined ? fallback : withFallback(fast, fallback)) as F;
  };
  if (!canGenerateCode()) return closurePath();
  const site: Site = { codec, type, sourceUrl: sourceUrlOf(codec, type), reported: false };
  const generate =
    specHooks.generate === undefined
      ? options.generate
      : () => specHooks.generate!(codec, type, options.generate) as F | undefined;
  const built = build(site, generate as () => Fn | undefined, fallback);
  if (built === REFUSED) return closurePath();
  return (built ?? fallback) as F;
}

/** `build`'s answer when the platform refused to generate code (see `CODE_GENERATION_REFUSED`). */
const REFUSED = Symbol('refused');

type Fn = (a: unknown, b: unknown) => unknown;

/** One fast path, for reports. */
interface Site {
  readonly codec: string;
  readonly type: Type;
  readonly sourceUrl: string;
  reported: boolean;
}

/**
 * The generated fast path with its fallback, or `undefined`. The wrapper that calls the fast path
 * and catches its bails is generated too, one per fast path: its call sees one callee, which V8
 * inlines (a wrapper closure shared by every fast path would see them all, and inline none). It
 * takes one argument (readers, JSON writers) or two (binary writers: a sink and a value), as the
 * fallback does. Its sourceURL is the fast path's with `.entry.js` for `.js`.
 */
function build(site: Site, generate: () => Fn | undefined, fallback: Fn): Fn | undefined | typeof REFUSED {
  const args = fallback.length < 2 ? 'a' : 'a, b';
  try {
    const { result, factories } = buildingAs(site.sourceUrl, () => {
      const fast = generate();
      if (fast === undefined) return undefined;
      const constants = new Constants();
      const code = constants.ref(fast, `the fast path, ${site.sourceUrl}`);
      const closures = constants.ref(fallback, 'the closure path: answers what the fast path bails on');
      const bail = constants.ref(BAIL);
      const after = constants.ref(
        afterThrow,
        'afterThrow: the closure path answers, and a throw it does not share is reported',
      );
      const where = constants.ref(site, `this fast path, named in reports`);
      const call = `${closures}(${args})`;
      const body = `return function fastPath(${args}) {\n  try { return ${code}(${args}); } catch (e) { return e === ${bail} ? ${call} : ${after}(e, ${where}, ${closures}, ${args}); }\n};`;
      return buildFunction<Fn>(constants, body, site.sourceUrl.replace(/\.js$/, '.entry.js'));
    });
    if (result !== undefined) recordGenerated(site.type, { codec: site.codec, sourceUrl: site.sourceUrl, factories });
    return result;
  } catch (e) {
    if (e === CODE_GENERATION_REFUSED) return REFUSED;
    // BAIL here means the generator declines this descriptor, as `undefined` does.
    if (e !== BAIL) report(site, 'build', e);
    return undefined;
  }
}

/** The closure fast path (binary direct readers where code cannot be generated) with its fallback. */
function withFallback(fast: Fn, fallback: Fn): Fn {
  return (a, b) => {
    try {
      return fast(a, b);
    } catch (e) {
      return e === BAIL ? fallback(a, b) : afterThrow(e, undefined, fallback, a, b);
    }
  };
}

/**
 * The fast path threw something else than BAIL. A `Failure` is the fast path meeting bad input
 * (an inlined closure reader or writer): `fallback` gives the exact error. Anything else is
 * unexpected unless `fallback` throws too (a getter that throws, a stack exhausted by deep input,
 * which `fallback` then reports as it would have anyway); when `fallback` answers, the fast path
 * is wrong where the closures are right, a bug in lacquer, reported once.
 */
function afterThrow(e: unknown, site: Site | undefined, fallback: Fn, a: unknown, b?: unknown): unknown {
  const value = fallback(a, b);
  if (!(e instanceof Failure) && site !== undefined && !site.reported) {
    site.reported = true;
    report(site, 'run', e);
  }
  return value;
}

// ---- Naming -------------------------------------------------------------------------------------

/**
 * How many fast paths were generated under each `lacquer/<codec>/<Name>`. Descriptors made at run
 * time (one per request, with a name each) must not grow it for ever: past `MAX_NAMES` names the
 * counts start over, and a name over `MEMO_KEY_LENGTH` is not counted (a name used twice only
 * confuses a debugger).
 */
const names = new Map<string, number>();
const MAX_NAMES = 10_000;

/** `lacquer/<codec>/<Name>.js`, `<Name>-2.js` for the second one of that name (another descriptor, other options). */
function sourceUrlOf(codec: string, type: Type): string {
  const named = (type as { readonly name?: unknown }).name;
  // A sourceURL ends at a line break: keep names to characters that are safe in a URL path.
  const name = (typeof named === 'string' && named !== '' ? named : type.kind).replace(/[^\w.$-]/g, '_');
  const base = `lacquer/${codec}/${name}`;
  const n = remember(names, base, (names.get(base) ?? 0) + 1, MAX_NAMES);
  return `${base}${n === 1 ? '' : `-${n}`}.js`;
}

// ---- Reporting ----------------------------------------------------------------------------------

/** A problem with generated code. The closure path gave the answer instead, so results are unchanged. */
export interface GeneratedCodeError {
  /**
   * `build`: the generator threw while making the code; the closure path is used for good.
   * `run`: the code threw (not a bail, not a read or write failure) on input the closure path
   * answers; the closure path answers each such input (later ones are not reported again).
   */
  readonly phase: 'build' | 'run';
  /** Where the code is, or would have been: `lacquer/<codec>/<Name>.js`. */
  readonly sourceUrl: string;
  readonly type: Type;
  readonly error: unknown;
}

/** Receives generated-code problems, each fast path's once. */
export type GeneratedCodeErrorHandler = (problem: GeneratedCodeError) => void;

const warn: GeneratedCodeErrorHandler = ({ phase, sourceUrl, error }) => {
  const what =
    phase === 'build' ? `generating ${sourceUrl} failed` : `${sourceUrl} threw where the closure path answers`;
  console.warn(`lacquer: ${what}; the closure path answers instead. This is a bug in lacquer:`, error);
};

let handler: GeneratedCodeErrorHandler = warn;

/**
 * Sets who hears of problems with generated code: a generator that throws while building, or
 * generated code that throws where the closure path answers. Both are bugs in lacquer, never in
 * the input, and neither changes a result (the closure path answers), so by default each fast path
 * reports once with `console.warn`. Pass a handler to log elsewhere or to fail tests, `undefined`
 * to restore the default; returns the handler it replaces.
 */
export function onGeneratedCodeError(next: GeneratedCodeErrorHandler | undefined): GeneratedCodeErrorHandler {
  const previous = handler;
  handler = next ?? warn;
  return previous;
}

function report(site: Site, phase: GeneratedCodeError['phase'], error: unknown): void {
  handler({ phase, sourceUrl: site.sourceUrl, type: site.type, error });
}

/**
 * For specs only (not exported from `lacquer`): when set, every generator runs through it, so a
 * spec can make one throw while building, or return code that throws.
 */
export const specHooks: { generate?: (codec: string, type: Type, generate: () => unknown) => unknown } = {};

// ---- Printing -----------------------------------------------------------------------------------

/** One function generated for a descriptor, for `generatedSource`. */
interface GeneratedCode {
  /** `read`, `json`, `msgpack-direct`, …: the `<codec>` of `sourceUrl`. */
  readonly codec: string;
  /** `lacquer/<codec>/<Name>.js`. */
  readonly sourceUrl: string;
  /** What `new Function` made; `toString()` gives the source, so none is kept twice. */
  readonly factories: readonly Factory[];
}

/** The functions generated for each descriptor, oldest first; they go when the descriptor goes. */
const generated = new WeakMap<Type, GeneratedCode[]>();

/** Remembers a function generated for `type`. */
function recordGenerated(type: Type, code: GeneratedCode): void {
  const codes = generated.get(type);
  if (codes === undefined) generated.set(type, [code]);
  else codes.push(code);
}

/**
 * The JavaScript lacquer generated for `type` so far, or only that of `codec` (`read`, `json`,
 * `msgpack`, `cbor`, `json-direct`, `msgpack-direct`, `cbor-direct`). Each piece ends in its
 * `//# sourceURL`, the name debuggers list it under and stack traces show:
 * `lacquer/<codec>/<Name>.js` for the generated reader or writer, then `<Name>.entry.js` for the
 * function the codec calls, which runs it and the closure path when it bails. Code is generated
 * on a descriptor's first encode or decode with a set of options, so call this after one; it is
 * `''` before, and where `new Function` is forbidden (the closure path alone runs there).
 */
export function generatedSource(type: Type, codec?: string): string {
  return (generated.get(type) ?? [])
    .filter((code) => codec === undefined || code.codec === codec)
    .flatMap((code) => code.factories.map(String))
    .join('\n\n');
}
