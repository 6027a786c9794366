import type { Codec } from '../../core/codec.ts';
import type { MethodContract } from '../../core/contract/method.ts';
import type { Opts } from '../../core/options.ts';
import { partReader } from '../../core/read/read.ts';
import type { ArgumentSources } from './arguments.ts';
import { textReader } from '../protocol/params/index.ts';
import { namedArguments } from '../protocol/call/named-arguments.ts';
import { NO_PARAMS } from '../protocol/pipeline/route-table.ts';
import { queryCredentials, type SecurityScheme } from '../protocol/call/security.ts';
import type { EndpointRequest } from '../protocol/types.ts';

/**
 * Reads the arguments of one call: positional ones in declared order, named ones as one object of
 * them by name (see `namedArguments`); from the body (decoded by `codec`), the path and the query.
 */
export type RequestArgumentsReader = (request: EndpointRequest, codec: Codec, body: Uint8Array) => unknown[];

/**
 * How an endpoint turns what a request carries into the arguments its method receives (see
 * {@link ArgumentSources}); `undefined` for a method without parameters. Throws `ReadError`: the
 * path and the query are read before the body.
 */
export function argumentsReader(
  contract: MethodContract,
  sources: ArgumentSources,
  opts: Opts,
  schemes: readonly SecurityScheme[],
): RequestArgumentsReader | undefined {
  const { paramTypes, paramNames } = contract;
  const input = sources.body;
  if (paramTypes.length === 0 && !sources.readsQuery) return undefined;
  if (paramNames === undefined) {
    // The specification's bodies: the value of the one parameter, or an array of them.
    return paramTypes.length === 1
      ? (_request, codec, body) => [codec.decode(input!, body, opts)]
      : (_request, codec, body) => codec.decode(input!, body, opts) as unknown[];
  }
  const text =
    sources.path.length > 0 || sources.readsQuery
      ? textReader(sources.path, sources.query, opts, queryCredentials(schemes))
      : undefined;
  const { readsQuery } = sources;
  // An empty body is the empty object: a call made before the method had body parameters still reads.
  const empty = input === undefined ? undefined : partReader(input, opts, 'json');
  return (request, codec, body) => {
    const search = readsQuery ? (request.search ?? '') : '';
    const named: Record<string, unknown> = text === undefined ? {} : text(request.params ?? NO_PARAMS, search);
    if (input !== undefined) {
      const value = body.byteLength === 0 ? empty!({}, undefined) : codec.decode(input, body, opts);
      // The body's object holds only the parameters it declares.
      Object.assign(named, value);
    }
    // No named parameters (a GET that refuses unknown query keys): no argument.
    return paramNames.length === 0 ? [] : [namedArguments(paramNames, named)];
  };
}
