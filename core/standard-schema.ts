import { Failure } from './errors/failure.ts';
import { allErrorsOf, asReadError } from './errors/read-error.ts';
import { compiled, readersKey } from './fast-path/compiled.ts';
import { resolveReadOptions, type ReadOptions } from './options.ts';
import { closuresWithAllErrors } from './read/all-errors.ts';
import type { Infer, InferInput, Type } from './descriptors/type.ts';

/** The Standard Schema v1 interface (standardschema.dev), copied as its authors intend. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  export interface FailureResult {
    readonly issues: readonly Issue[];
  }
  export interface Issue {
    readonly message: string;
    readonly path?: readonly (PropertyKey | PathSegment)[] | undefined;
  }
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
}

/**
 * The `~standard` member of a descriptor: validation of plain JavaScript values, default options.
 * It reads with the closure reader, which gives the same values and errors as the codecs' read
 * pass; so `import { t } from 'lacquer'` alone brings no code generation into a bundle.
 */
export function standardProps<Out, In>(type: Type<Out, In>): StandardSchemaV1.Props<In, Out> {
  return compiled(type, 'standard', () => propsFor(type, undefined));
}

/**
 * A Standard Schema v1 of `type` that validates with the reading options `opts`
 * (`errorOnMissingKeys`, `errorOnUnknownKeys`, `maxDepth`), where `type['~standard']` uses the
 * defaults. Issues list every error, as `ReadError.errors` does, with numbers for array and tuple
 * indices in their paths.
 */
export function standardSchema<T extends Type>(type: T, opts?: ReadOptions): StandardSchemaV1<InferInput<T>, Infer<T>> {
  const key = readersKey(resolveReadOptions(opts));
  return compiled(type, `standard-schema ${key}`, () => ({ '~standard': propsFor(type as Type<Infer<T>, InferInput<T>>, opts) }));
}

function propsFor<Out, In>(type: Type<Out, In>, opts: ReadOptions | undefined): StandardSchemaV1.Props<In, Out> {
  let read: ((value: unknown) => unknown) | undefined;
  return {
    version: 1,
    vendor: 'lacquer',
    validate(value: unknown): StandardSchemaV1.Result<Out> {
      read ??= closuresWithAllErrors(type, { ...resolveReadOptions(opts), source: 'binary' });
      try {
        return { value: read(value) as Out };
      } catch (e) {
        if (!(e instanceof Failure)) throw asReadError(e);
        return { issues: allErrorsOf(e).map(({ message, segments }) => ({ message, path: segments })) };
      }
    },
  };
}
