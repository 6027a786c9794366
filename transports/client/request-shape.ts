import type { MethodContract } from '../../core/contract/method.ts';
import type { Type } from '../../core/descriptors/type.ts';
import type { ArgumentSources } from '../rest/arguments.ts';
import { textWriter } from '../protocol/params/index.ts';

/** What a client method sends for its arguments: the target below the base URL, and the body's value. */
export interface RequestShape {
  /** The arguments the method takes before its call options. */
  readonly arity: number;
  /** The body's descriptor; `undefined` when the request carries none, or a stream. */
  readonly body: Type | undefined;
  /** The items' descriptor of a stream the body carries (`method([t.stream(T)], R)`). */
  readonly stream?: Type;
  /** The path with its query (`/notes/5?full=true`) and the body's value, from the arguments. */
  build(args: readonly unknown[]): { readonly target: string; readonly body: unknown };
}

/**
 * The shape of the requests of one method, as the registry reads them (see `ArgumentSources`):
 * positional arguments go in the body; named ones, given as one object, fill the route's `:name`
 * segments (percent-encoded), the query and the body (an object of the rest by name).
 */
export function requestShape(name: string, contract: MethodContract, sources: ArgumentSources): RequestShape {
  const body = sources.body;
  // The route's path (its `:name` segments filled in below), or the specification's `/{name}`.
  const target = contract.route?.path ?? `/${encodeURIComponent(name)}`;
  if (contract.bodyStream !== undefined) {
    // The one parameter, given as it is or by its name, is the items.
    const key = contract.paramNames?.[0];
    return {
      arity: 1,
      body: undefined,
      stream: contract.bodyStream.item,
      build: ([given]) => ({
        target,
        body: key === undefined ? given : (given as Record<string, unknown> | undefined)?.[key],
      }),
    };
  }
  if (contract.paramNames === undefined) {
    const arity = contract.paramTypes.length;
    return { arity, body, build: (args) => ({ target, body: arity === 1 ? args[0] : args }) };
  }
  const path = target.split('/');
  const writer = textWriter(sources.path, sources.query);
  const { bodyNames } = sources;
  return {
    arity: 1,
    body,
    build([given]) {
      if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
        throw new TypeError(
          `${name}(): named parameters are given as one object: ${name}({ ${contract.paramNames!.join(', ')} })`,
        );
      }
      const args = (given ?? {}) as Record<string, unknown>;
      const segments = sources.path.length === 0 ? undefined : writer.segments(args);
      const query = sources.query.length === 0 ? '' : writer.query(args);
      const filled = (
        segments === undefined ? path : path.map((s) => (s.startsWith(':') ? segments[s.slice(1)]! : s))
      ).join('/');
      // Always an object of the body's parameters by name, as the registry reads it.
      const value = Object.fromEntries(bodyNames.filter((n) => Object.hasOwn(args, n)).map((n) => [n, args[n]]));
      return { target: query === '' ? filled : `${filled}?${query}`, body: value };
    },
  };
}
