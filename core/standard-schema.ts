import { ReadError, asReadError } from './errors/read-error.ts';
import { compiled } from './fast-path/compiled.ts';
import { resolveReadOptions } from './options.ts';
import { compileReader } from './read/compile-reader.ts';
import type { Type } from './types/type.ts';

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
  return compiled(type, 'standard', () => {
    let read: ((value: unknown) => unknown) | undefined;
    const props: StandardSchemaV1.Props<In, Out> = {
      version: 1,
      vendor: 'lacquer',
      validate(value: unknown): StandardSchemaV1.Result<Out> {
        read ??= compileReader(type, { ...resolveReadOptions(undefined), source: 'binary' });
        try {
          return { value: read(value) as Out };
        } catch (e) {
          const error = asReadError(e);
          if (!(error instanceof ReadError)) throw error;
          return { issues: [{ message: error.message, path: pointerSegments(error.path) }] };
        }
      },
    };
    return props;
  });
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
