import type { Contract, Implementation, Methods } from './service.ts';

/** Where `meta` stores a class's contract: a registered symbol, so two copies of lacquer agree. */
const CONTRACT = Symbol.for('lacquer.contract');

/** A class whose instances implement `M`. */
export type ServiceClass<M extends Methods> = abstract new (...args: never[]) => Implementation<M>;

/**
 * Binds `contract` to `cls`, as the specification's `lib::meta<Service>`: `registry.on(new cls())` then
 * exposes the listed methods. TypeScript checks that the class implements every method with the
 * contract's parameter and return types. Subclasses inherit the binding. Returns the contract.
 */
export function meta<M extends Methods>(cls: ServiceClass<NoInfer<M>>, contract: Contract<M>): Contract<M> {
  if (typeof cls !== 'function') throw new TypeError('meta(): the first argument must be a class');
  if (typeof contract !== 'object' || contract === null || typeof contract.methods !== 'object') {
    throw new TypeError(`meta(${cls.name}): the second argument must be a service({...}) contract`);
  }
  Object.defineProperty(cls, CONTRACT, { value: contract, configurable: true, enumerable: false, writable: false });
  return contract;
}

/** The contract bound to `instance`'s class (or a base class), if any. */
export function contractOf(instance: object): Contract | undefined {
  const ctor = (instance as { constructor?: unknown }).constructor;
  if (typeof ctor !== 'function') return undefined;
  return (ctor as unknown as Record<symbol, Contract | undefined>)[CONTRACT];
}
