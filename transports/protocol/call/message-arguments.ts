import type { MethodContract } from '../../../core/contract/method.ts';
import { t } from '../../../core/descriptors/index.ts';
import { unwrapLazy } from '../../../core/descriptors/unwrap-lazy.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { Failure } from '../../../core/errors/failure.ts';
import { asReadError } from '../../../core/errors/read-error.ts';
import type { Opts } from '../../../core/options.ts';
import { partReader, type PartReader } from '../../../core/read/read.ts';
import { namedArguments, namedArgumentsOf } from './named-arguments.ts';
import { exactPart, isMessageObject, type MessagePart } from './message-part.ts';

/** The kinds of descriptor whose values are JSON objects: a method with one such parameter takes it as its arguments object. */
const OBJECT_KINDS: ReadonlySet<string> = new Set(['object', 'variant', 'map']);

/** Whether `type`'s values are always objects (through `t.lazy`): an MCP tool's arguments or output may be one. */
export function isObjectType(type: Type): boolean {
  return OBJECT_KINDS.has(unwrapLazy(type).kind);
}

/**
 * The descriptor of a method's arguments as one object, when it has one: its named parameters by
 * name, none (`{}`), or its one parameter when that is an object; `undefined` for positional
 * parameters that are not one object (an MCP tool cannot take them).
 */
export function argumentObjectOf(contract: MethodContract): Type | undefined {
  const { paramTypes, paramNames } = contract;
  if (paramNames !== undefined)
    return t.object(Object.fromEntries(paramNames.map((name, i) => [name, paramTypes[i]!])));
  if (paramTypes.length === 0) return t.object({});
  return paramTypes.length === 1 && isObjectType(paramTypes[0]!) ? paramTypes[0] : undefined;
}

/** The readers of params as an array, and as an object. */
interface FormReaders {
  readonly positional: PartReader<unknown>;
  readonly object: PartReader<unknown> | undefined;
}

/**
 * How the arguments of one method are read from a message's `params`: an array with one element
 * per declared parameter, in declared order; or an object: the named parameters by name, or, for a
 * method whose one parameter is an object, that object.
 */
export class MessageArgumentsReader {
  /** The positional form: a tuple of the parameters. */
  readonly #positional: Type;
  /** The arguments as one object, when the method has one: named parameters, or the one object parameter. */
  readonly argumentObject: Type | undefined;
  readonly #names: readonly string[] | undefined;
  readonly #count: number;
  readonly #opts: Opts;
  /** The compiled readers of both forms, by the rules of each source, made on first use. */
  readonly #readers: { json?: FormReaders; binary?: FormReaders } = {};

  constructor(contract: MethodContract, opts: Opts) {
    const { paramTypes, paramNames } = contract;
    this.#positional = t.tuple(paramTypes);
    this.#names = paramNames;
    this.#count = paramTypes.length;
    this.#opts = opts;
    this.argumentObject = argumentObjectOf(contract);
  }

  /** Every descriptor a message's params may be read as, to compile ahead. */
  get descriptors(): readonly Type[] {
    return this.argumentObject === undefined ? [this.#positional] : [this.#positional, this.argumentObject];
  }

  /**
   * The arguments the implementation receives from `params` (absent: none given): positional ones
   * in declared order, named ones as one object by name (`namedArguments`), given by name or as an
   * array in declared order. Throws `ReadError` with paths into `params`: `/0/name`, `/id`.
   */
  read(params: MessagePart | undefined): readonly unknown[] {
    if (params === undefined) {
      if (this.#count === 0) return [];
      if (this.argumentObject !== undefined) return this.#byName({}, 'json', undefined);
      throw asReadError(
        new Failure(
          'missing_key',
          `params are missing: ${this.#count === 1 ? 'one parameter' : `${this.#count} parameters`} expected`,
        ),
      );
    }
    const { tree } = params;
    const { source } = params.message;
    if (Array.isArray(tree)) {
      const values = this.#readersOf(source).positional(tree, exactPart(params)) as readonly unknown[];
      return this.#names === undefined || this.#count === 0 ? values : [namedArgumentsOf(this.#names, values)];
    }
    if (isMessageObject(tree) && this.argumentObject !== undefined)
      return this.#byName(tree, source, exactPart(params));
    const expected =
      this.argumentObject === undefined
        ? `an array of ${this.#count} parameters`
        : 'an array of the parameters, or an object of them by name';
    throw asReadError(new Failure('type_mismatch', `params must be ${expected}`));
  }

  #readersOf(source: 'json' | 'binary'): FormReaders {
    return (this.#readers[source] ??= {
      positional: partReader(this.#positional, this.#opts, source),
      object: this.argumentObject === undefined ? undefined : partReader(this.argumentObject, this.#opts, source),
    });
  }

  #byName(tree: unknown, source: 'json' | 'binary', exact: (() => unknown) | undefined): readonly unknown[] {
    const value = this.#readersOf(source).object!(tree, exact) as Record<string, unknown>;
    if (this.#count === 0) return [];
    return this.#names === undefined ? [value] : [namedArguments(this.#names, value)];
  }
}
