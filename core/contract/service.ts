import type { InferParams, InferReturn, MethodContract } from './method.ts';

/** The methods of a contract, by name. */
export type Methods = Readonly<Record<string, MethodContract>>;

/** A service contract: the methods a class exposes, with their descriptors. */
export interface Contract<M extends Methods = Methods> {
  readonly methods: M;
}

/** What a class must provide to implement contract methods `M`; methods may be `async`. */
export type Implementation<M extends Methods> = {
  [K in keyof M]: (...args: InferParams<M[K]['params']>) => InferReturn<M[K]['returns']>;
};

/** Describes a service: `service({ getAllUsers: method([], t.array(User)), ... })`. */
// @__NO_SIDE_EFFECTS__
export function service<const M extends Methods>(methods: M): Contract<M> {
  for (const [name, m] of Object.entries(methods)) {
    if (typeof m !== 'object' || m === null || !Array.isArray(m.params) || m.returns === undefined) {
      throw new TypeError(`service(): '${name}' is not a method(...) description`);
    }
  }
  return Object.freeze({ methods });
}
