import type { Codec } from '../../core/codec.ts';
import type { EndpointVerb } from '../../core/contract/method.ts';
import { contractOf } from '../../core/contract/meta.ts';
import type { Opts } from '../../core/options.ts';
import { DEFAULT_CODECS } from './default-codecs.ts';
import { createEndpoint, type EndpointSettings } from './endpoint.ts';
import { Endpoints } from './endpoints.ts';
import type { Interceptor } from './interceptors.ts';
import {
  DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_ITEM_BYTES, DEFAULT_MAX_STREAM_BYTES, DEFAULT_STREAM_IDLE_MS, defaultOnError,
  type RegistryOptions,
} from './options.ts';
import { queryCredentials, type SecurityScheme } from './security.ts';
import { pathFor, verbFor } from './verb.ts';
import { argumentSources, type ArgumentSources } from './arguments.ts';
import { ambiguous } from './router.ts';
import { Problem } from './problem.ts';
import { registryLimiter } from './rate-limit.ts';

/** Options of {@link Registry.on}. */
export interface ServiceMountOptions {
  /** Wrap every call of this service, inside the registry's interceptors, the first outermost. */
  interceptors?: readonly Interceptor[];
}

function checkInterceptors(where: string, interceptors: readonly Interceptor[] | undefined): readonly Interceptor[] {
  if (interceptors === undefined) return [];
  if (!Array.isArray(interceptors) || interceptors.some((i) => typeof i !== 'function')) {
    throw new TypeError(`${where}: interceptors must be an array of functions (call, next) => ...`);
  }
  return [...interceptors];
}

/** The protocol tag of a REST registry, as the specification's `lib::REST`; REST is the one protocol. */
export const REST = 'REST';
/** The protocols a registry speaks. */
export type Protocol = typeof REST;

function nameOf(instance: object): string {
  const ctor = (instance as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'the object';
}

/**
 * Turns service instances into endpoints: `new Registry(opts).on(new UserService())`, then
 * `server.mount('/api', registry.endpoints)`. Each listed method becomes `/{name}` with the verb the
 * naming rules give, reading and writing every codec in `opts.codecs`.
 */
export class Registry {
  readonly endpoints: Endpoints;
  readonly #settings: EndpointSettings;
  readonly #schemes: ReadonlyMap<string, SecurityScheme>;
  readonly #interceptors: readonly Interceptor[];
  /** Which service claimed each `VERB /path`, for clear conflict errors. */
  readonly #owners = new Map<string, string>();

  constructor(opts: RegistryOptions = {}, protocol: Protocol = REST) {
    if (protocol !== REST) throw new TypeError(`Registry: unknown protocol ${String(protocol)}; only REST is supported`);
    // A copy that cannot change: endpoints remember what they negotiated with it.
    const codecs: readonly Codec[] = Object.freeze([...(opts.codecs ?? DEFAULT_CODECS)]);
    if (codecs.length === 0) throw new TypeError('Registry: codecs must hold at least one codec');
    const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!(maxBodyBytes >= 0)) throw new RangeError(`Registry: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
    const {
      codecs: _c, exposeErrors: _x, onError: _o, maxBodyBytes: _m, security, interceptors, onResponse, heartbeatMs = DEFAULT_HEARTBEAT_MS,
      maxItemBytes = DEFAULT_MAX_ITEM_BYTES, maxStreamBytes = DEFAULT_MAX_STREAM_BYTES, streamIdleMs = DEFAULT_STREAM_IDLE_MS, streamMaxMs = 0,
      rateLimit, ...codecOpts
    } = opts;
    const readWrite: Opts = codecOpts;
    this.#schemes = new Map(Object.entries(security ?? {}));
    for (const [name, scheme] of this.#schemes) {
      if (typeof scheme?.credential !== 'function') throw new TypeError(`Registry: security.${name} must be bearerAuth(), apiKeyAuth() or basicAuth()`);
    }
    this.#interceptors = checkInterceptors('Registry', interceptors);
    if (onResponse !== undefined && typeof onResponse !== 'function') throw new TypeError('Registry: onResponse must be a function');
    for (const [name, ms] of [['heartbeatMs', heartbeatMs], ['streamIdleMs', streamIdleMs], ['streamMaxMs', streamMaxMs]] as const) {
      if (!(ms >= 0)) throw new RangeError(`Registry: ${name} must be a number ≥ 0, got ${ms}`);
    }
    if (!(maxItemBytes > 0)) throw new RangeError(`Registry: maxItemBytes must be a number > 0, got ${maxItemBytes}`);
    if (!(maxStreamBytes >= 0)) throw new RangeError(`Registry: maxStreamBytes must be a number ≥ 0, got ${maxStreamBytes}`);
    this.#settings = {
      codecs,
      opts: readWrite,
      exposeErrors: opts.exposeErrors ?? false,
      onError: opts.onError ?? defaultOnError,
      onResponse,
      maxBodyBytes,
      acceptPost: [...new Set(codecs.flatMap((c) => c.contentTypes))].join(', '),
      streamLimits: { heartbeatMs, idleMs: streamIdleMs, maxMs: streamMaxMs },
      maxItemBytes,
      maxStreamBytes,
      rateLimit: registryLimiter(rateLimit),
      rateLimitStore: rateLimit?.store,
    };
    this.endpoints = new Endpoints(maxBodyBytes, codecs, this.#schemes, Object.freeze({ ...readWrite }));
    // Problem documents are written in every codec; compiled now, as the endpoints are.
    for (const codec of codecs) codec.prepare?.(Problem);
  }

  /**
   * Exposes the methods that `meta(Class, contract)` lists for `instance`'s class, each call wrapped
   * by the registry's interceptors and then `options.interceptors`. Throws a `TypeError` when the
   * class has no contract, the instance lacks a listed method, or a method names a security scheme
   * the registry lacks, and an `Error` when a verb and path is already taken; nothing is
   * registered then.
   */
  on(instance: object, options: ServiceMountOptions = {}): this {
    if (typeof instance !== 'object' || instance === null) {
      throw new TypeError(`Registry.on(): expected a service instance, got ${instance === null ? 'null' : typeof instance}`);
    }
    const service = nameOf(instance);
    const contract = contractOf(instance);
    if (contract === undefined) {
      throw new TypeError(`Registry.on(): ${service} has no contract; bind one with meta(${service}, service({ ... }))`);
    }
    const interceptors = [...this.#interceptors, ...checkInterceptors('Registry.on()', options.interceptors)];
    const planned: Planned[] = [];
    for (const [name, m] of Object.entries(contract.methods)) {
      if (typeof (instance as Record<string, unknown>)[name] !== 'function') {
        throw new TypeError(`Registry.on(): ${service} lists '${name}' in its contract but has no such method`);
      }
      const names = m.security ?? contract.security ?? [];
      const schemes = names.map((scheme) => {
        const found = this.#schemes.get(scheme);
        if (found === undefined) {
          throw new TypeError(`Registry.on(): ${service}.${name} names the security scheme '${scheme}', which this registry lacks; `
            + `supply it with new Registry({ security: { ${scheme}: ... } })`);
        }
        return found;
      });
      const path = pathFor(name, m);
      const verb = verbFor(name, m);
      const sources = argumentSources(`Registry.on(): ${service}.${name}`, m, verb, queryCredentials(schemes));
      const conflict = this.#conflict(verb, path, planned);
      if (conflict !== undefined) throw new Error(`Registry.on(): ${service} exposes ${verb} ${path}, ${conflict}`);
      planned.push({ name, verb, path, schemes, names, sources });
    }
    for (const { name, verb, path, schemes, names, sources } of planned) {
      const plan = { instance, service, name, contract: contract.methods[name]!, schemes, interceptors, sources };
      const handler = createEndpoint(plan, this.#settings);
      this.endpoints.operations.push(Object.freeze({ service, method: name, verb, path, contract: plan.contract, security: names }));
      let verbs = this.endpoints.routes.get(path);
      if (verbs === undefined) this.endpoints.routes.set(path, (verbs = new Map()));
      verbs.set(verb, handler);
      this.#owners.set(`${verb} ${path}`, service);
    }
    return this;
  }

  /**
   * Why `verb path` cannot be added beside the registry's endpoints and those `planned` with it:
   * the same verb and path, or a pattern that leaves some request without a winner (see
   * `ambiguous`); `undefined` when it can.
   */
  #conflict(verb: EndpointVerb, path: string, planned: readonly Planned[]): string | undefined {
    const segments = path.slice(1).split('/');
    const taken = [...this.#owners, ...planned.map((p) => [`${p.verb} ${p.path}`, `${p.name} of the same service`] as const)];
    for (const [key, owner] of taken) {
      if (!key.startsWith(`${verb} `)) continue;
      const other = key.slice(verb.length + 1);
      if (other === path) return `already exposed by ${owner}`;
      if (ambiguous(segments, other.slice(1).split('/'))) return `which would match the same requests as ${other} of ${owner}, neither more specific`;
    }
    return undefined;
  }
}

interface Planned {
  readonly name: string;
  readonly verb: EndpointVerb;
  readonly path: string;
  readonly schemes: SecurityScheme[];
  readonly names: readonly string[];
  readonly sources: ArgumentSources;
}
