import { t } from '../../core/descriptors/index.ts';
import type { Type } from '../../core/descriptors/type.ts';
import type { EndpointVerb, MethodContract } from '../../core/contract/method.ts';
import { queryKeysOf, queryProblem, segmentProblem, type NamedParam } from '../protocol/params/index.ts';

/**
 * Where the arguments of one endpoint travel, shared by the registry, the client and OpenAPI.
 *
 * An array of parameters travels in the body, as the specification says: none, the one
 * parameter's value, or an array of them. Named parameters bound by the route's `:name` segments
 * travel in the path; the others travel in the query for GET and DELETE, and in the body for POST,
 * PUT and PATCH: always an object of them by name, however many there are (the object JSON-RPC's
 * by-name `params` and MCP's arguments carry), so that adding an optional parameter changes no
 * existing caller's body. An empty body is the empty object.
 */
export interface ArgumentSources {
  /** Bound by the path, in path order. */
  readonly path: readonly NamedParam[];
  /** Read from the query string. */
  readonly query: readonly NamedParam[];
  /**
   * Whether the query holds the arguments (named parameters of a GET or DELETE): a key no
   * parameter declares is then an unknown key. Elsewhere the query is left to whoever reads it.
   */
  readonly readsQuery: boolean;
  /** The body's descriptor; `undefined` when the request carries none. */
  readonly body: Type | undefined;
  /**
   * How the body gives arguments: `positional` (the specification's: the value, or an array of
   * them), `object` (named parameters by name).
   */
  readonly bodyForm: 'positional' | 'object';
  /** The names of the parameters the body holds (named parameters only). */
  readonly bodyNames: readonly string[];
}

const QUERY_VERBS: readonly EndpointVerb[] = ['GET', 'DELETE'];

/**
 * Where each argument of `contract`, served with `verb`, travels. Throws a `TypeError` naming the
 * method when a parameter cannot travel where it must (an object in a path, a map in a query), or
 * claims a query key a security scheme reads its credential from (`credentials`).
 */
export function argumentSources(
  where: string,
  contract: MethodContract,
  verb: EndpointVerb,
  credentials: readonly string[] = [],
): ArgumentSources {
  const { paramTypes, paramNames } = contract;
  if (paramNames === undefined) {
    const body = paramTypes.length === 0 ? undefined : paramTypes.length === 1 ? paramTypes[0] : t.tuple(paramTypes);
    return { path: [], query: [], readsQuery: false, body, bodyForm: 'positional', bodyNames: [] };
  }
  // A stream, the one parameter, is the whole body, read item by item: no value of a descriptor.
  if (contract.bodyStream !== undefined)
    return { path: [], query: [], readsQuery: false, body: undefined, bodyForm: 'object', bodyNames: [] };
  const bound = contract.route?.names ?? [];
  const named = paramNames.map((name, i): NamedParam => ({ name, type: paramTypes[i]! }));
  const path = bound.map((name) => named.find((p) => p.name === name)!);
  const rest = named.filter((p) => !bound.includes(p.name));
  for (const p of path) {
    const problem = segmentProblem(p.type);
    if (problem !== undefined) throw new TypeError(`${where}: the path parameter '${p.name}' ${problem}`);
  }
  if (QUERY_VERBS.includes(verb)) {
    for (const p of rest) {
      const problem = queryProblem(p.type);
      if (problem !== undefined)
        throw new TypeError(
          `${where}: the parameter '${p.name}' of a ${verb} endpoint comes from the query, but ${problem}`,
        );
      const credential = credentials.find((key) => queryKeysOf(p).includes(key));
      if (credential !== undefined)
        throw new TypeError(
          `${where} reads the query key '${credential}' as an argument, where its security scheme reads the credential`,
        );
    }
    return { path, query: rest, readsQuery: true, body: undefined, bodyForm: 'object', bodyNames: [] };
  }
  const bodyNames = rest.map((p) => p.name);
  if (rest.length === 0) return { path, query: [], readsQuery: false, body: undefined, bodyForm: 'object', bodyNames };
  return {
    path,
    query: [],
    readsQuery: false,
    body: t.object(Object.fromEntries(rest.map((p) => [p.name, p.type]))),
    bodyForm: 'object',
    bodyNames,
  };
}

/** Whether every parameter of `contract` may come from a query string (a reader named `get*` is then a GET). */
export function fitsQuery(contract: MethodContract): boolean {
  return (
    contract.paramNames !== undefined &&
    contract.bodyStream === undefined &&
    contract.paramTypes.every((type) => queryProblem(type) === undefined)
  );
}
