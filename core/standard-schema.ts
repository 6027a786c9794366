import { Failure } from './errors/failure.ts';
import { allErrorsOf, asReadError } from './errors/read-error.ts';
import { compiled, readersKey } from './compiled.ts';
import { resolveReadOptions, type ReadOptions } from './options.ts';
import { closuresWithAllErrors } from './read/all-errors.ts';
import type { StandardSchemaV1 } from './descriptors/standard-schema-v1.ts';
import type { Infer, InferInput, Type } from './descriptors/type.ts';

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
  return compiled(type, `standard-schema ${key}`, () => ({
    '~standard': propsFor(type as Type<Infer<T>, InferInput<T>>, opts),
  }));
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
