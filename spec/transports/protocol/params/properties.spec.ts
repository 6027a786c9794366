// For every descriptor the text forms take and every value of it, reading what the writer wrote
// gives the value back; the writer refuses exactly the values the JSON writer refuses (and, in a
// path, the texts no segment can be); a descriptor without a text form is never taken.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  type LiteralType,
  ReadError,
  WriteError,
  t,
  type MissingKeys,
  type ObjectType,
  type Type,
} from '../../../../index.ts';
import { compileJsonWriter } from '../../../../codecs/json/compile-writer.ts';
import { asWriteError } from '../../../../core/errors/write-error.ts';
import { parseTarget } from '../../../../transports/protocol/pipeline/target.ts';
import {
  paramsProblem,
  queryProblem,
  requiredArrayProblem,
  segmentProblem,
  textReader,
  textWriter,
  type NamedParam,
} from '../../../../transports/protocol/params/index.ts';
import { arbDescriptor, arbJsonNear, arbLeaf, arbValueOf } from '../../../support/arbitraries.ts';

const RUNS = 300;

/** Scalars with a text form (some `arbLeaf` gives have none: `t.unknown()`, enums whose values share a text). */
const arbScalar = arbLeaf.filter((type) => queryProblem(type) === undefined);
/** `t.optional(t.literal(null))` could never hold its `null` (in JSON as in a query, `null` is absent). */
const arbOptionalInner = arbScalar.filter((type) => !(type.kind === 'literal' && (type as LiteralType).value === null));
/** Scalars a path segment takes: no bytes. */
const arbSegmentType = arbScalar.filter((type) => segmentProblem(type) === undefined);

/** What one query key carries: a scalar, an optional scalar, an array of scalars (empty ones included), optional or not. */
const arbMemberType: fc.Arbitrary<Type> = fc.oneof(
  { weight: 3, arbitrary: arbScalar },
  { weight: 1, arbitrary: arbOptionalInner.map((inner) => t.optional(inner)) },
  { weight: 1, arbitrary: arbScalar.map((element) => t.array(element)) },
  { weight: 1, arbitrary: arbScalar.map((element) => t.array(element).default([])) },
  { weight: 1, arbitrary: arbScalar.map((element) => t.optional(t.array(element))) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(arbScalar, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 2, max: 4 }))
      .map(([element, minItems, maxItems]) => t.array(element, { minItems, maxItems })),
  },
);

/** Names that need encoding, or that `Object.prototype` also has; never `__proto__`, which no object may declare. */
const arbName = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 5 }).filter((n) => n !== '__proto__') },
  { weight: 1, arbitrary: fc.constantFrom('id', 'constructor', 'toString', 'a b', '&', '=', '+', '%', 'é', '') },
);

/** A query parameter: a member type, or an object (empty and one-member ones included) spread over the query. */
const arbQueryType: fc.Arbitrary<Type> = fc.oneof(
  { weight: 3, arbitrary: arbMemberType },
  { weight: 1, arbitrary: fc.dictionary(arbName, arbMemberType, { maxKeys: 3 }).map((fields) => t.object(fields)) },
);

interface Params {
  readonly path: readonly NamedParam[];
  readonly query: readonly NamedParam[];
}

const arbParams: fc.Arbitrary<Params> = fc
  .tuple(
    fc.array(fc.tuple(arbName, arbSegmentType), { maxLength: 2 }),
    fc.array(fc.tuple(arbName, arbQueryType), { maxLength: 3 }),
  )
  .map(([path, query]) => ({
    path: path.map(([name, type]) => ({ name, type })),
    query: query.map(([name, type]) => ({ name, type })),
  }))
  .filter(({ path, query }) => paramsProblem(path, query) === undefined);

/** Arguments for the parameters, each valid (absent when optional and so chosen). */
function arbArgs(
  { path, query }: Params,
  value: (type: Type) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const { name, type } of [...path, ...query]) model[name] = value(type);
  return fc.record(model).map((args) => {
    // An optional parameter left out is absent, as reading gives it.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args))
      if (v !== undefined)
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

const arbOptions = fc.record({
  errorOnMissingKeys: fc.constantFrom<MissingKeys>(false, true, 'unless-default'),
  errorOnUnknownKeys: fc.boolean(),
});

/**
 * What reading gives back for `args`: the same, but an optional array sent empty, which travels as
 * no key, is absent.
 */
function readBack(query: readonly NamedParam[], args: Record<string, unknown>): Record<string, unknown> {
  const dropEmpty = (object: Record<string, unknown>, key: string, type: Type) => {
    const value = object[key];
    if (type.kind === 'optional' && Array.isArray(value) && value.length === 0) delete object[key];
  };
  const out = structuredClone(args);
  for (const { name, type } of query) {
    if (type.kind !== 'object') dropEmpty(out, name, type);
    else if (out[name] !== undefined)
      for (const [key, field] of Object.entries((type as ObjectType).fields))
        dropEmpty(out[name] as Record<string, unknown>, key, field);
  }
  return out;
}

/**
 * What a server hands the reader for a target the client wrote: the server's own parsing of
 * `/api/{segment}/…?{query}`, each segment decoded, by parameter name.
 */
function served(
  path: readonly NamedParam[],
  segments: Record<string, string>,
  query: string,
): [Record<string, string>, string] {
  const target = parseTarget(`/api/${path.map((p) => segments[p.name]).join('/')}${query === '' ? '' : `?${query}`}`);
  if (typeof target === 'string') expect.fail(`the server refuses the target: ${target}`);
  const values: Record<string, string> = {};
  path.forEach((p, i) => Object.defineProperty(values, p.name, { value: target.segments[i + 1], enumerable: true }));
  return [values, target.search];
}

function throwsWith<E>(kind: new (...a: never[]) => E, run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (e) {
    if (e instanceof kind) return true;
    throw e;
  }
}

describe('transports/protocol/params: properties', () => {
  it('reads back every value the writer wrote, for every descriptor with a text form, under every option', () => {
    // A registry refuses, at on(), a required array a query cannot send empty.
    const arb = arbParams
      .chain((params) =>
        fc.tuple(
          fc.constant(params),
          arbArgs(params, (type) => arbValueOf(type)),
          arbOptions,
        ),
      )
      .filter(([params, , opts]) => requiredArrayProblem(params.query, opts.errorOnMissingKeys) === undefined);
    fc.assert(
      fc.property(arb, ([params, args, opts]) => {
        const write = textWriter(params.path, params.query);
        let segments: Record<string, string>;
        try {
          segments = write.segments(args);
        } catch (e) {
          // A path value that cannot be one segment ('', '.', a '/'…) is the one refusal of a valid value.
          expect(e).to.be.instanceOf(WriteError);
          expect((e as WriteError).code).to.equal('invalid_format');
          return;
        }
        const read = textReader(params.path, params.query, opts);
        expect(read(...served(params.path, segments, write.query(args)))).to.deep.equal(readBack(params.query, args));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses to write exactly the values the JSON writer refuses (and, in a path, the texts no segment can be)', () => {
    const arb = arbParams.chain((params) =>
      fc.tuple(
        fc.constant(params),
        arbArgs(params, (type) => fc.oneof(arbValueOf(type), arbJsonNear(type))),
      ),
    );
    fc.assert(
      fc.property(arb, ([params, args]) => {
        const write = textWriter(params.path, params.query);
        const json = compileJsonWriter(
          t.object(Object.fromEntries([...params.path, ...params.query].map((p) => [p.name, p.type]))),
          false,
        );
        const jsonRefuses = throwsWith(WriteError, () => {
          try {
            json(args, '');
          } catch (e) {
            throw asWriteError(e);
          }
        });
        let segmentOnly = false;
        const textRefuses = throwsWith(WriteError, () => {
          write.query(args);
          try {
            write.segments(args);
          } catch (e) {
            segmentOnly =
              e instanceof WriteError && e.code === 'invalid_format' && e.message.includes('as a path segment');
            throw e;
          }
        });
        if (segmentOnly) expect(textRefuses).to.equal(true);
        else expect(textRefuses).to.equal(jsonRefuses);
      }),
      { numRuns: RUNS },
    );
  });

  it('never takes a descriptor segmentProblem or queryProblem refuses, and takes the others', () => {
    const arbType = fc.oneof(arbDescriptor, arbQueryType, arbSegmentType);
    fc.assert(
      fc.property(arbType, (type) => {
        const param = [{ name: 'p', type }];
        const inPath = segmentProblem(type);
        const inQuery = queryProblem(type);
        expect(throwsWith(TypeError, () => textReader(param, []))).to.equal(inPath !== undefined);
        expect(throwsWith(TypeError, () => textWriter(param, []))).to.equal(inPath !== undefined);
        expect(throwsWith(TypeError, () => textReader([], param))).to.equal(inQuery !== undefined);
        expect(throwsWith(TypeError, () => textWriter([], param))).to.equal(inQuery !== undefined);
        if (inPath !== undefined) expect(inPath).to.be.a('string').and.not.equal('');
        if (inQuery !== undefined) expect(inQuery).to.be.a('string').and.not.equal('');
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any query string with values or a ReadError, never anything else', () => {
    const arbQuery = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc
        .array(
          fc.tuple(
            fc.constantFrom('a', 'b', 'c', 'n', 'constructor', '%zz', '%C3', 'a+b'),
            fc.string({ maxLength: 4 }),
          ),
          { maxLength: 6 },
        )
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
    );
    const params = [
      { name: 'a', type: t.array(t.i8()) },
      { name: 'b', type: t.optional(t.f64()) },
      { name: 'o', type: t.object({ c: t.string({ minLength: 1 }), n: t.u64() }) },
    ];
    fc.assert(
      fc.property(arbQuery, arbOptions, (search, opts) => {
        try {
          textReader([], params, opts)({}, search);
        } catch (e) {
          expect(e).to.be.instanceOf(ReadError);
          expect((e as ReadError).errors.length).to.be.greaterThan(0);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
