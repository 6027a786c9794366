import type { Codec } from '../../core/codec.ts';
import { contractOf } from '../../core/contract/meta.ts';
import type { Opts } from '../../core/options.ts';
import type { Interceptor } from '../protocol/call/interceptors.ts';
import type { MethodPlan } from '../protocol/call/method-plan.ts';
import { registryLimiter } from '../protocol/call/rate-limit.ts';
import type { SecurityScheme } from '../protocol/call/security.ts';
import type { Protocol } from '../protocol/call/telemetry.ts';
import { DEFAULT_CODECS } from '../protocol/default-codecs.ts';
import {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ITEM_BYTES,
  DEFAULT_MAX_STREAM_BYTES,
  DEFAULT_STREAM_IDLE_MS,
  defaultOnError,
  type RegistryOptions,
} from '../protocol/options.ts';
import { Endpoints } from '../protocol/pipeline/endpoints.ts';
import { Problem } from '../protocol/problem.ts';
import type { ProtocolRoutes, RegistrySettings, ServedProtocol } from '../protocol/serving.ts';
import { JSONRPC_PROTOCOL } from '../jsonrpc/serving.ts';
import { MCP_PROTOCOL } from '../mcp/serving.ts';
import { REST_PROTOCOL } from '../rest/serving.ts';

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

/** The protocol tag of a REST registry, as the specification's `lib::REST`: each method an endpoint. */
export const REST = 'REST';
/** The protocol tag of a JSON-RPC 2.0 registry: one route, `POST {prefix}`, methods called by name. */
export const JSONRPC = 'JSONRPC';
/** The protocol tag of an MCP registry (Streamable HTTP, stateless): each method a tool. */
export const MCP = 'MCP';
export type { Protocol };

/** The protocol each tag names. */
const PROTOCOLS: ReadonlyMap<string, ServedProtocol> = new Map(
  [REST_PROTOCOL, JSONRPC_PROTOCOL, MCP_PROTOCOL].map((p) => [p.name, p]),
);

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
  /** The protocol the registry speaks: `REST`, `JSONRPC` or `MCP`. */
  readonly protocol: Protocol;
  readonly #onWarning: (message: string) => void;
  readonly #schemes: ReadonlyMap<string, SecurityScheme>;
  readonly #interceptors: readonly Interceptor[];
  /** How the registry's protocol serves its methods. */
  readonly #routes: ProtocolRoutes;

  constructor(opts: RegistryOptions = {}, protocol: Protocol = REST) {
    const served = PROTOCOLS.get(protocol);
    if (served === undefined)
      throw new TypeError(`Registry: unknown protocol ${String(protocol)}; one of ${[...PROTOCOLS.keys()].join(', ')}`);
    this.protocol = protocol;
    // A copy that cannot change: endpoints remember what they negotiated with it.
    const codecs: readonly Codec[] = Object.freeze([...(opts.codecs ?? DEFAULT_CODECS)]);
    if (codecs.length === 0) throw new TypeError('Registry: codecs must hold at least one codec');
    const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!(maxBodyBytes >= 0)) throw new RangeError(`Registry: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
    const {
      codecs: _c,
      exposeErrors: _x,
      onError: _o,
      maxBodyBytes: _m,
      security,
      interceptors,
      onResponse,
      heartbeatMs = DEFAULT_HEARTBEAT_MS,
      maxItemBytes = DEFAULT_MAX_ITEM_BYTES,
      maxStreamBytes = DEFAULT_MAX_STREAM_BYTES,
      streamIdleMs = DEFAULT_STREAM_IDLE_MS,
      streamMaxMs = 0,
      maxBatch = DEFAULT_MAX_BATCH,
      mcp = {},
      onWarning = warn,
      telemetry,
      rateLimit,
      ...codecOpts
    } = opts;
    const readWrite: Opts = codecOpts;
    this.#schemes = new Map(Object.entries(security ?? {}));
    for (const [name, scheme] of this.#schemes) {
      if (typeof scheme?.credential !== 'function')
        throw new TypeError(`Registry: security.${name} must be bearerAuth(), apiKeyAuth() or basicAuth()`);
    }
    this.#interceptors = checkInterceptors('Registry', interceptors);
    if (onResponse !== undefined && typeof onResponse !== 'function')
      throw new TypeError('Registry: onResponse must be a function');
    for (const [name, ms] of [
      ['heartbeatMs', heartbeatMs],
      ['streamIdleMs', streamIdleMs],
      ['streamMaxMs', streamMaxMs],
    ] as const) {
      if (!(ms >= 0)) throw new RangeError(`Registry: ${name} must be a number ≥ 0, got ${ms}`);
    }
    if (!(maxItemBytes > 0)) throw new RangeError(`Registry: maxItemBytes must be a number > 0, got ${maxItemBytes}`);
    if (!(maxStreamBytes >= 0))
      throw new RangeError(`Registry: maxStreamBytes must be a number ≥ 0, got ${maxStreamBytes}`);
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`Registry: maxBatch must be an integer ≥ 1, got ${maxBatch}`);
    if (typeof onWarning !== 'function') throw new TypeError('Registry: onWarning must be a function');
    if (telemetry !== undefined && typeof telemetry?.serverSpan !== 'function')
      throw new TypeError(
        'Registry: telemetry must be openTelemetry() from lacquerjs/otel, or an object with serverSpan()',
      );
    this.#onWarning = onWarning;
    const settings: RegistrySettings = {
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
      telemetry,
      protocol,
      rateLimit: registryLimiter(rateLimit),
      rateLimitStore: rateLimit?.store,
    };
    this.endpoints = new Endpoints(maxBodyBytes, codecs, this.#schemes, Object.freeze({ ...readWrite }));
    // Problem documents are written in every codec; compiled now, as the endpoints are.
    for (const codec of codecs) codec.prepare?.(Problem);
    this.#routes = served.open({ endpoints: this.endpoints, settings, maxBatch, mcp, onWarning });
  }

  /**
   * Exposes the methods that `meta(Class, contract)` lists for `instance`'s class, each call wrapped
   * by the registry's interceptors and then `options.interceptors`. Throws a `TypeError` when the
   * class has no contract, the instance lacks a listed method, or a method names a security scheme
   * the registry lacks, and an `Error` when a verb and path is already taken (naming both methods);
   * nothing is registered then.
   */
  on(instance: object, options: ServiceMountOptions = {}): this {
    if (typeof instance !== 'object' || instance === null) {
      throw new TypeError(
        `Registry.on(): expected a service instance, got ${instance === null ? 'null' : typeof instance}`,
      );
    }
    const service = nameOf(instance);
    const contract = contractOf(instance);
    if (contract === undefined) {
      throw new TypeError(
        `Registry.on(): ${service} has no contract; bind one with meta(${service}, service({ ... }))`,
      );
    }
    const interceptors = [...this.#interceptors, ...checkInterceptors('Registry.on()', options.interceptors)];
    const plans: MethodPlan[] = [];
    for (const [name, m] of Object.entries(contract.methods)) {
      if (typeof (instance as Record<string, unknown>)[name] !== 'function') {
        throw new TypeError(`Registry.on(): ${service} lists '${name}' in its contract but has no such method`);
      }
      // A method that names the protocols serving it is left out of the others' registries without a word.
      if (m.protocols !== undefined && !m.protocols.includes(this.protocol)) continue;
      const schemeNames = m.security ?? contract.security ?? [];
      const schemes = schemeNames.map((scheme) => {
        const found = this.#schemes.get(scheme);
        if (found === undefined) {
          throw new TypeError(
            `Registry.on(): ${service}.${name} names the security scheme '${scheme}', which this registry lacks; ` +
              `supply it with new Registry({ security: { ${scheme}: ... } })`,
          );
        }
        return found;
      });
      const left = this.#routes.leftOut(m);
      if (left !== undefined) {
        this.#onWarning(`Registry.on(): ${service}.${name} is left out of this ${this.protocol} registry: ${left}`);
        continue;
      }
      plans.push({ instance, service, name, contract: m, schemes, schemeNames, interceptors });
    }
    this.#routes.serve(plans);
    return this;
  }
}

function warn(message: string): void {
  console.warn(message);
}
