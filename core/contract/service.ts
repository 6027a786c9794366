import type { Call } from './call.ts';
import {
  schemeNames,
  type InferParams,
  type InferReturn,
  type MethodContract,
  type Params,
  type Returns,
} from './method.ts';

/** The methods of a contract, by name. */
export type Methods = Readonly<Record<string, MethodContract>>;

/** A service contract: the methods a class exposes, with their descriptors. */
export interface Contract<M extends Methods = Methods> {
  readonly methods: M;
  /** The security schemes of every method that does not name its own; `[]` (public) by default. */
  readonly security: readonly string[];
}

/** Options of {@link service}. */
export interface ServiceOptions {
  /** The security schemes that admit a caller to every method: `['bearer']`. Default `[]` (public). */
  security?: readonly string[];
}

/**
 * What a class must provide to implement contract methods `M`; methods may be `async`. Each takes
 * its declared parameters (positional ones one by one, named ones as one object of them by name:
 * `updateNote({ id, patch }, call)`) and then the {@link Call}, which it may leave out.
 */
export type Implementation<M extends Methods> = {
  [K in keyof M]: MethodImplementation<M[K]['params'], M[K]['returns']>;
};

type MethodImplementation<P extends Params, R extends Returns> = (
  ...args: [...InferParams<P>, call: Call]
) => InferReturn<R>;

/**
 * Describes a service: `service({ getAllUsers: method([], t.array(User)), ... })`, with
 * `{ security: ['bearer'] }` when its methods need a caller.
 */
// @__NO_SIDE_EFFECTS__
export function service<const M extends Methods>(methods: M, options: ServiceOptions = {}): Contract<M> {
  for (const [name, m] of Object.entries(methods)) {
    if (typeof m !== 'object' || m === null || !Array.isArray(m.paramTypes) || m.returns === undefined) {
      throw new TypeError(`service(): '${name}' is not a method(...) description`);
    }
  }
  const security = options.security === undefined ? [] : schemeNames('service()', options.security);
  return Object.freeze({ methods, security });
}
