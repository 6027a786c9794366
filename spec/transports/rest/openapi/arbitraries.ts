// fast-check arbitraries of whole services for the OpenAPI specs: descriptors of every kind (from
// spec/support/arbitraries.ts) with some objects named, some `.default()`s, named objects shared
// between parameters and results, and methods of every verb, status and security.
import fc from 'fast-check';
import {
  bearerAuth,
  contextKey,
  meta,
  method,
  Registry,
  service,
  t,
  type AnyType,
  type MethodContract,
  type MissingKeys,
  type RegistryOptions,
  type Type,
} from '../../../../index.ts';
import { arbDescriptor, arbMissingKeys, arbValueOf } from '../../../support/arbitraries.ts';
import { argumentSources } from '../../../../transports/rest/arguments.ts';
import {
  paramsProblem,
  queryProblem,
  requiredArrayProblem,
  segmentProblem,
} from '../../../../transports/protocol/params/index.ts';
import { verbFor } from '../../../../transports/rest/verb.ts';

/** The choices that turn a descriptor into one with names and defaults. */
interface Decoration {
  readonly names: readonly boolean[];
  readonly defaults: readonly boolean[];
  readonly seed: number;
}

/** Names objects `T<n>` (unique across one service) and adds `.default()`s, as `decoration` says. */
function decorate(type: Type, how: Decoration, state: { node: number; name: number; prefix: string }): Type {
  const d = type as AnyType;
  const at = state.node++;
  let out: Type;
  switch (d.kind) {
    case 'array':
      out = t.array(decorate(d.element, how, state));
      break;
    case 'map':
      out = t.map(decorate(d.values, how, state));
      break;
    case 'tuple':
      out = t.tuple(d.elements.map((e) => decorate(e, how, state)));
      break;
    case 'optional':
      out = t.optional(decorate(d.inner, how, state));
      break;
    case 'nullable':
      out = t.nullable(decorate(d.inner, how, state));
      break;
    case 'object': {
      const fields = Object.fromEntries(Object.entries(d.fields).map(([k, f]) => [k, decorate(f, how, state)]));
      const name =
        how.names[at % Math.max(1, how.names.length)] === true ? `${state.prefix}${state.name++}` : undefined;
      out = t.object(fields, {
        ...(name === undefined ? {} : { name }),
        ...(d.requiresKey === undefined ? {} : { requiresKey: d.requiresKey }),
      });
      break;
    }
    default:
      out = type;
  }
  if (how.defaults[at % Math.max(1, how.defaults.length)] === true && d.kind !== 'optional') {
    const [value] = fc.sample(arbValueOf(out), { seed: how.seed + at, numRuns: 1 });
    out = out.default(value as never);
  }
  return out;
}

const arbDecoration: fc.Arbitrary<Decoration> = fc.record({
  names: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
  defaults: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }).map((a) => a.map((b, i) => b && i % 3 === 0)),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
});

/** A descriptor of every kind but void, decorated; named objects get `prefix` + a number. */
export function arbApiType(prefix: string): fc.Arbitrary<Type> {
  return fc.tuple(arbDescriptor, arbDecoration).map(([type, how]) => decorate(type, how, { node: 0, name: 0, prefix }));
}

/**
 * Always in the mix: a named record holding what the document must treat with care (64-bit
 * integers, bytes, a map, a tuple, optional and nullable members, defaults).
 */
export const Record64 = t.object(
  {
    id: t.u64(),
    delta: t.i64().default(-7n),
    raw: t.bytes(),
    tags: t.map(t.string()),
    pair: t.tuple([t.f32(), t.optional(t.string())]),
    note: t.optional(t.string()),
    parent: t.nullable(t.u64()),
    limit: t.i32().default(10),
  },
  { name: 'Record64' },
);

/** One method of a generated service, and how to call it. */
export interface GeneratedMethod {
  readonly name: string;
  readonly contract: MethodContract;
}

export interface GeneratedService {
  readonly methods: readonly GeneratedMethod[];
  /** The registry's options: the reading options the document must follow. */
  readonly options: RegistryOptions;
}

const VERB_NAMES = ['get', 'find', 'create', 'update', 'delete', 'compute', 'send'] as const;

/** Services of 1 to 4 methods; each method's types are decorated descriptors or `Record64`. */
export const arbService: fc.Arbitrary<GeneratedService> = fc
  .record({
    methods: fc.array(
      fc.record({
        verb: fc.constantFrom(...VERB_NAMES),
        params: fc.array(fc.oneof({ weight: 4, arbitrary: arbApiType('P') }, fc.constant<Type>(Record64)), {
          maxLength: 3,
        }),
        returns: fc.oneof(
          { weight: 4, arbitrary: arbApiType('R') },
          { weight: 1, arbitrary: fc.constant<Type>(t.void()) },
          { weight: 1, arbitrary: fc.constant<Type>(Record64) },
          { weight: 2, arbitrary: fc.constant<Type | 'first'>('first') },
        ),
        status: fc.option(fc.constantFrom(200, 201, 202), { nil: undefined }),
        secured: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    errorOnMissingKeys: arbMissingKeys,
    errorOnUnknownKeys: fc.boolean(),
  })
  .map(({ methods, errorOnMissingKeys, errorOnUnknownKeys }) => ({
    options: { errorOnMissingKeys, errorOnUnknownKeys },
    methods: methods.map((m, i) => {
      // Prefixes per method keep generated names unique across the service.
      const rename = (type: Type, prefix: string) => renamed(type, `${prefix}${i}_`);
      const params = m.params.map((p, j) => rename(p, `P${j}`));
      const returns = m.returns === 'first' ? (params[0] ?? Record64) : rename(m.returns, 'R');
      const name = `${m.verb}Thing${i}`;
      // GET takes no parameters: a get* method with some is a POST by the naming rules.
      const status = returns.kind === 'void' && m.status === undefined ? undefined : m.status;
      const security = m.secured === undefined ? undefined : m.secured ? ['bearer'] : [];
      return {
        name,
        contract: method(params, returns, {
          ...(status === undefined ? {} : { status }),
          ...(security === undefined ? {} : { security }),
        }),
      };
    }),
  }));

/** `type` with every generated name `X<n>` turned into `<prefix>X<n>`, the same descriptor otherwise. */
function renamed(type: Type, prefix: string): Type {
  const seen = new Map<Type, Type>();
  const walk = (x: Type): Type => {
    if (x === Record64) return x;
    const known = seen.get(x);
    if (known !== undefined) return known;
    const d = x as AnyType;
    let out: Type;
    switch (d.kind) {
      case 'array':
        out = t.array(walk(d.element));
        break;
      case 'map':
        out = t.map(walk(d.values));
        break;
      case 'tuple':
        out = t.tuple(d.elements.map(walk));
        break;
      case 'optional':
        out = t.optional(walk(d.inner));
        break;
      case 'nullable':
        out = t.nullable(walk(d.inner));
        break;
      case 'object': {
        const fields = Object.fromEntries(Object.entries(d.fields).map(([k, f]) => [k, walk(f)]));
        out = t.object(fields, {
          ...(d.name === undefined ? {} : { name: `${prefix}${d.name}` }),
          ...(d.requiresKey === undefined ? {} : { requiresKey: d.requiresKey }),
        });
        break;
      }
      default:
        return x;
    }
    if (x.hasDefault) out = out.default(x.defaultValue as never);
    seen.set(x, out);
    return out;
  };
  return walk(type);
}

export const CALLER = contextKey<string>('caller');
export const TOKEN = 'generated-token';

/**
 * A registry serving `svc` as the class `Generated`: each method answers `answer(method, args)`
 * (default: its first argument, else a fixed valid value of its result).
 */
export function registryFor(
  svc: GeneratedService,
  answer?: (m: GeneratedMethod, args: unknown[]) => unknown,
): Registry {
  class Generated {}
  const methods: Record<string, MethodContract> = {};
  for (const m of svc.methods) {
    methods[m.name] = m.contract;
    const fallback =
      m.contract.returns.kind === 'void' || m.contract.returns.kind === 'stream'
        ? undefined
        : fc.sample(arbValueOf(m.contract.returns as Type), { seed: 1, numRuns: 1 })[0];
    Object.defineProperty(Generated.prototype, m.name, {
      value: (...args: unknown[]) =>
        answer === undefined ? fallback : answer(m, args.slice(0, m.contract.paramTypes.length)),
    });
  }
  meta(Generated as never, service(methods, { security: [] }));
  return new Registry({
    ...svc.options,
    onError: () => {},
    security: { bearer: bearerAuth({ verify: (token) => (token === TOKEN ? 'tester' : undefined), key: CALLER }) },
  }).on(new Generated());
}

// ---- Routes and named parameters ----------------------------------------------------------------

/** Descriptors a path segment can carry: scalars of every kind with their constraints (see `segmentProblem`). */
export const arbSegmentType: fc.Arbitrary<Type> = arbDescriptor.filter((type) => segmentProblem(type) === undefined);

/** Query keys, some that `Object.prototype` has and some that need percent-encoding. */
const arbQueryKey = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{1,4}$/) },
  fc.constantFrom('constructor', 'toString', 'a b', 'a&b', 'a=b', 'ü', '+'),
);

/** A scalar, sometimes with a `.default()` of its own. */
const arbQueryScalar: fc.Arbitrary<Type> = fc
  .tuple(arbSegmentType, fc.boolean(), fc.integer({ min: 0, max: 1_000_000 }))
  .map(([type, withDefault, seed]) => {
    if (!withDefault) return type;
    const [value] = fc.sample(arbValueOf(type), { seed, numRuns: 1 });
    return type.default(value as never);
  });

/** An array of scalars (a repeated key), bounded or not. */
const arbQueryArray: fc.Arbitrary<Type> = fc
  .tuple(
    arbSegmentType,
    fc.option(fc.record({ minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 2, max: 4 }) }), {
      nil: undefined,
    }),
  )
  .map(([element, c]) => (c === undefined ? t.array(element) : t.array(element, c)));

/** What one query key carries: a scalar or an array of scalars, optional or not, an array defaulting to []. */
const arbQueryMember: fc.Arbitrary<Type> = fc.oneof(
  { weight: 3, arbitrary: arbQueryScalar },
  arbSegmentType.map((type) => t.optional(type)),
  arbQueryArray,
  arbQueryArray.map((type) => type.default([] as never)),
  arbQueryArray.map((type) => t.optional(type)),
);

/** A query parameter: one key, or an object spread over its members (some with a `requiresKey` rule). */
const arbQueryType: fc.Arbitrary<Type> = fc
  .oneof(
    { weight: 3, arbitrary: arbQueryMember },
    fc
      .tuple(fc.dictionary(arbQueryKey, arbQueryMember, { minKeys: 1, maxKeys: 3 }), fc.boolean(), fc.boolean())
      .map(([fields, name, rule]) =>
        t.object(fields, {
          ...(name ? { name: 'Spread' } : {}),
          ...(rule ? { requiresKey: (key: string) => key.length > 1 } : {}),
        }),
      ),
  )
  .filter((type) => queryProblem(type) === undefined);

/**
 * Services of 1 to 3 methods with named parameters, each answering `true`: `GET` and `DELETE`
 * routes (`/m0/:p0/x/:p1`) whose other parameters come from the query, and `get*` methods on their
 * default paths (`GET /getThing1?q0=...`). Methods that the registry would refuse (two parameters
 * claiming one query key) are left out.
 */
export const arbRoutedService: fc.Arbitrary<GeneratedService> = fc
  .record({
    methods: fc.array(
      fc.record({
        shape: fc.constantFrom('GET', 'DELETE', 'default'),
        path: fc.array(arbSegmentType, { maxLength: 2 }),
        query: fc.array(arbQueryType, { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    errorOnMissingKeys: arbMissingKeys,
    errorOnUnknownKeys: fc.boolean(),
  })
  .map(({ methods, errorOnMissingKeys, errorOnUnknownKeys }) => ({
    options: { errorOnMissingKeys, errorOnUnknownKeys },
    methods: methods.flatMap((m, i) => {
      const path = m.shape === 'default' ? [] : m.path;
      const params: Record<string, Type> = {};
      path.forEach((type, j) => {
        params[`p${j}`] = type;
      });
      m.query.forEach((type, j) => {
        params[`q${j}`] = type;
      });
      const route =
        m.shape === 'default'
          ? undefined
          : `${m.shape} /m${i}${path.map((_, j) => `${j === 1 ? '/x' : ''}/:p${j}`).join('')}`;
      const contract = method(params, t.bool(), route === undefined ? {} : { route });
      const name = m.shape === 'default' ? `getThing${i}` : `thing${i}`;
      return paramsProblemOf(name, contract, errorOnMissingKeys) === undefined ? [{ name, contract }] : [];
    }),
  }))
  .filter((svc) => svc.methods.length > 0);

/**
 * Why the registry would refuse `contract`'s parameters (two of them claiming one query key, a
 * required array a query cannot send empty), as it is served with its verb.
 */
function paramsProblemOf(name: string, contract: MethodContract, errorOnMissingKeys: MissingKeys): string | undefined {
  const sources = argumentSources('spec', contract, verbFor(name, contract));
  return paramsProblem(sources.path, sources.query) ?? requiredArrayProblem(sources.query, errorOnMissingKeys);
}
