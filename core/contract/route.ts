import type { EndpointVerb } from './verbs.ts';

/** Where a method is served, from `method(..., { route: 'GET /notes/:id' })`. */
export interface RouteSpec {
  readonly verb: EndpointVerb;
  /** The path below the mount prefix, with `:name` segments: `/notes/:id`. */
  readonly path: string;
  /** The names of the path parameters, in path order: `['id']`. */
  readonly names: readonly string[];
}

export const ROUTE_VERBS: readonly EndpointVerb[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A parameter name a path may bind: an identifier. */
const PARAMETER = /^[A-Za-z_$][\w$]*$/;
/** A literal segment: RFC 3986 `pchar`s that need no encoding, not starting with `:`. */
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=@][A-Za-z0-9\-._~!$&'()*+,;=:@]*$/;

/**
 * Parses `'GET /notes/:id'`: one verb, one space, a path of one or more non-empty segments, each a
 * literal or a `:name`. Throws a `TypeError` saying what is wrong.
 */
export function parseRoute(route: unknown): RouteSpec {
  const fail = (why: string): never => {
    throw new TypeError(`method(): route ${JSON.stringify(route)} ${why}; write it as 'GET /notes/:id'`);
  };
  if (typeof route !== 'string') return fail('is not a string');
  const space = route.indexOf(' ');
  if (space === -1) return fail('has no verb');
  const verb = route.slice(0, space) as EndpointVerb;
  if (!ROUTE_VERBS.includes(verb))
    return fail(`has the verb '${verb}'; one of ${ROUTE_VERBS.join(', ')} is expected (a GET route answers HEAD too)`);
  const path = route.slice(space + 1);
  if (!path.startsWith('/') || path === '/') return fail('needs a path of at least one segment, starting with /');
  const names: string[] = [];
  for (const segment of path.slice(1).split('/')) {
    if (segment.startsWith(':')) {
      const name = segment.slice(1);
      if (!PARAMETER.test(name)) fail(`has ':${name}', which is not a parameter name`);
      if (names.includes(name)) fail(`binds ':${name}' twice`);
      names.push(name);
    } else if (segment === '') {
      fail('has an empty segment');
    } else if (segment === '.' || segment === '..' || !LITERAL.test(segment)) {
      fail(`has the segment '${segment}', which a request path cannot hold as it is`);
    }
  }
  return Object.freeze({ verb, path, names: Object.freeze(names) });
}
