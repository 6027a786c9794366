import { Type, type Infer, type InferInput } from './type.ts';
import type { OptionalType } from './optional.ts';
import type { UnknownType } from './unknown.ts';

/** The members of an object descriptor, in the order they are read and written. */
export type Fields = Readonly<Record<string, Type>>;

/**
 * Decides whether `key` must be present when `errorOnMissingKeys` is on. `isNullable` is true for
 * `t.optional`, `t.nullable` and `t.unknown` members. The default is `!isNullable`. Under
 * `'unless-default'` it is not asked about a member an absent key reads as a `.default()` of
 * (not `t.optional(T).default(undefined)`, which is `t.optional(T)`): that one is never required.
 */
export type RequiresKey = (key: string, isNullable: boolean) => boolean;

export interface ObjectOptions {
  /** Names the record in JSON Schema (`$defs`) and in error messages. */
  name?: string;
  /** Said of the record in JSON Schema and OpenAPI. */
  description?: string;
  /** Overrides which keys are required; consulted only when `errorOnMissingKeys` is on (see {@link RequiresKey}). */
  requiresKey?: RequiresKey;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** Keys reading may leave out of the result: `t.optional` members, and `t.unknown` ones (an absent value is `undefined`). */
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends OptionalType | UnknownType ? K : never }[keyof F];
/** Keys a writer's input may leave out: optional members and members with `.default()`. */
type InputOptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends OptionalType | UnknownType
    ? K
    : F[K] extends { readonly '~defaulted': true }
      ? K
      : never;
}[keyof F];
type InferObject<F extends Fields> = Simplify<
  { -readonly [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<F[K]> } & {
    -readonly [K in OptionalKeys<F>]?: Infer<F[K]>;
  }
>;
type InferInputObject<F extends Fields> = Simplify<
  { -readonly [K in Exclude<keyof F, InputOptionalKeys<F>>]: InferInput<F[K]> } & {
    -readonly [K in InputOptionalKeys<F>]?: InferInput<F[K]>;
  }
>;

/** A record with declared members; undeclared keys are rejected (or dropped) and never reach the result. */
export class ObjectType<F extends Fields = Fields> extends Type<InferObject<F>, InferInputObject<F>> {
  readonly kind = 'object';
  readonly name: string | undefined;
  readonly requiresKey: RequiresKey | undefined;

  constructor(
    readonly fields: F,
    options: ObjectOptions = {},
  ) {
    super();
    if (Object.hasOwn(fields, '__proto__')) {
      throw new TypeError("t.object(): a member may not be named '__proto__'");
    }
    // Keys are written as text in every codec, which cannot hold a lone surrogate.
    const notText = Object.keys(fields).find((key) => !key.isWellFormed());
    if (notText !== undefined)
      throw new TypeError(
        `t.object(): the member name ${JSON.stringify(notText)} holds a lone surrogate, which no codec can write`,
      );
    this.name = options.name;
    this.requiresKey = options.requiresKey;
    if (options.description !== undefined)
      (this as { description: string | undefined }).description = options.description;
  }
}
