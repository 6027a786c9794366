import { ReadError } from './errors/read-error.ts';
import { readTree } from './read/read.ts';
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

const props = new WeakMap<Type, StandardSchemaV1.Props<unknown, unknown>>();

/** The `~standard` member of a descriptor: validation of plain JavaScript values, default options. */
export function standardProps<Out>(type: Type<Out>): StandardSchemaV1.Props<unknown, Out> {
  let p = props.get(type);
  if (p === undefined) {
    p = {
      version: 1,
      vendor: 'lacquer',
      validate(value: unknown): StandardSchemaV1.Result<unknown> {
        try {
          return { value: readTree(type, value, undefined, 'binary') };
        } catch (e) {
          if (!(e instanceof ReadError)) throw e;
          return { issues: [{ message: e.message, path: pointerSegments(e.path) }] };
        }
      },
    };
    props.set(type, p);
  }
  return p as StandardSchemaV1.Props<unknown, Out>;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
