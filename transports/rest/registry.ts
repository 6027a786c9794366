import type { Codec } from '../../core/codec.ts';
import type { EndpointVerb } from '../../core/contract/method.ts';
import { contractOf } from '../../core/contract/meta.ts';
import type { Opts } from '../../core/options.ts';
import { DEFAULT_CODECS } from './default-codecs.ts';
import { createEndpoint, type EndpointSettings } from './endpoint.ts';
import { Endpoints } from './endpoints.ts';
import type { Interceptor } from './interceptors.ts';
import {
  DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_ITEM_BYTES, DEFAULT_MAX_STREAM_BYTES, DEFAULT_STREAM_IDLE_MS, defaultOnError,
  type McpOptions, type RegistryOptions,
} from './options.ts';
import { queryCredentials, type SecurityScheme } from './security.ts';
import { pathFor, verbFor } from './verb.ts';
import { argumentSources, type ArgumentSources } from './arguments.ts';
import { requiredArrayProblem } from './params/index.ts';
import { ambiguous } from './router.ts';
import { Problem } from './problem.ts';
import type { Protocol } from './telemetry.ts';
import type { MethodContract } from '../../core/contract/method.ts';
import { StreamType } from '../../core/descriptors/stream.ts';
import { resultEnvelope, rpcHandler } from './jsonrpc/handler.ts';
import { ErrorAnswer } from './jsonrpc/messages.ts';
import { mcpHandler, type McpSettings } from './mcp/handler.ts';
import { argumentObjectOf } from './procedures/arguments.ts';
import { Procedure } from './procedures/procedure.ts';
import { toolOf } from './mcp/tools.ts';
import type { MethodPlan } from './method-plan.ts';
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

/** The protocol tag of a REST registry, as the specification's `lib::REST`: each method an endpoint. */
export const REST = 'REST';
/** The protocol tag of a JSON-RPC 2.0 registry: one route, `POST {prefix}`, methods called by name. */
export const JSONRPC = 'JSONRPC';
/** The protocol tag of an MCP registry (Streamable HTTP, stateless): each method a tool. */
export const MCP = 'MCP';
export type { Protocol };
const PROTOCOLS: readonly string[] = [REST, JSONRPC, MCP];

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
  readonly #settings: EndpointSettings;
  readonly #onWarning: (message: string) => void;
  /** JSON-RPC and MCP: the methods by name. */
  readonly #procedures = new Map<string, Procedure>();
  readonly #schemes: ReadonlyMap<string, SecurityScheme>;
  readonly #interceptors: readonly Interceptor[];
  /** Which method (`Service.method`) claimed each `VERB /path`, for clear conflict errors. */
  readonly #owners = new Map<string, string>();

  constructor(opts: RegistryOptions = {}, protocol: Protocol = REST) {
    if (!PROTOCOLS.includes(protocol)) throw new TypeError(`Registry: unknown protocol ${String(protocol)}; one of ${PROTOCOLS.join(', ')}`);
    this.protocol = protocol;
    // A copy that cannot change: endpoints remember what they negotiated with it.
    const codecs: readonly Codec[] = Object.freeze([...(opts.codecs ?? DEFAULT_CODECS)]);
    if (codecs.length === 0) throw new TypeError('Registry: codecs must hold at least one codec');
    const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!(maxBodyBytes >= 0)) throw new RangeError(`Registry: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
    const {
      codecs: _c, exposeErrors: _x, onError: _o, maxBodyBytes: _m, security, interceptors, onResponse, heartbeatMs = DEFAULT_HEARTBEAT_MS,
      maxItemBytes = DEFAULT_MAX_ITEM_BYTES, maxStreamBytes = DEFAULT_MAX_STREAM_BYTES, streamIdleMs = DEFAULT_STREAM_IDLE_MS, streamMaxMs = 0,
      maxBatch = DEFAULT_MAX_BATCH, mcp = {}, onWarning = warn, telemetry,
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
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`Registry: maxBatch must be an integer ≥ 1, got ${maxBatch}`);
    if (typeof onWarning !== 'function') throw new TypeError('Registry: onWarning must be a function');
    if (telemetry !== undefined && typeof telemetry?.serverSpan !== 'function') throw new TypeError('Registry: telemetry must be openTelemetry() from lacquerjs/otel, or an object with serverSpan()');
    this.#onWarning = onWarning;
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
      telemetry,
      protocol,
      rateLimit: registryLimiter(rateLimit),
      rateLimitStore: rateLimit?.store,
    };
    this.endpoints = new Endpoints(maxBodyBytes, codecs, this.#schemes, Object.freeze({ ...readWrite }));
    // Problem documents are written in every codec; compiled now, as the endpoints are.
    for (const codec of codecs) codec.prepare?.(Problem);
    if (protocol !== REST) {
      for (const codec of codecs) codec.prepare?.(ErrorAnswer);
      const message = { codecs, opts: readWrite, maxBodyBytes, acceptPost: this.#settings.acceptPost };
      const handler = protocol === JSONRPC ? rpcHandler(this.#procedures, { ...message, maxBatch }) : mcpHandler(this.#procedures, { ...message, mcp: mcpSettings(mcp) });
      this.endpoints.routes.set('/', new Map([['POST', handler]]));
    }
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
      throw new TypeError(`Registry.on(): expected a service instance, got ${instance === null ? 'null' : typeof instance}`);
    }
    const service = nameOf(instance);
    const contract = contractOf(instance);
    if (contract === undefined) {
      throw new TypeError(`Registry.on(): ${service} has no contract; bind one with meta(${service}, service({ ... }))`);
    }
    const interceptors = [...this.#interceptors, ...checkInterceptors('Registry.on()', options.interceptors)];
    const planned: Planned[] = [];
    // JSON-RPC and MCP: the methods called by name.
    const called: { readonly name: string; readonly schemes: SecurityScheme[] }[] = [];
    for (const [name, m] of Object.entries(contract.methods)) {
      if (typeof (instance as Record<string, unknown>)[name] !== 'function') {
        throw new TypeError(`Registry.on(): ${service} lists '${name}' in its contract but has no such method`);
      }
      // A method that names the protocols serving it is left out of the others' registries without a word.
      if (m.protocols !== undefined && !m.protocols.includes(this.protocol)) continue;
      const names = m.security ?? contract.security ?? [];
      const schemes = names.map((scheme) => {
        const found = this.#schemes.get(scheme);
        if (found === undefined) {
          throw new TypeError(`Registry.on(): ${service}.${name} names the security scheme '${scheme}', which this registry lacks; `
            + `supply it with new Registry({ security: { ${scheme}: ... } })`);
        }
        return found;
      });
      if (this.protocol !== REST) {
        const left = this.#leftOut(m);
        if (left !== undefined) {
          this.#onWarning(`Registry.on(): ${service}.${name} is left out of this ${this.protocol} registry: ${left}`);
          continue;
        }
        const owner = this.#procedures.get(name)?.service;
        if (owner !== undefined) throw new Error(`Registry.on(): ${service} exposes the method ${name}, already exposed by ${owner}`);
        const ignored = (['timeoutMs', 'cache'] as const).filter((option) => m[option] !== undefined);
        // Said once per method, by the first JSON-RPC or MCP registry serving it, not by each.
        if (ignored.length > 0 && !toldRestOnly.has(m)) {
          toldRestOnly.add(m);
          this.#onWarning(`Registry.on(): ${service}.${name}'s ${ignored.join(' and ')} ${ignored.length > 1 ? 'apply' : 'applies'} to REST endpoints only; `
            + 'a JSON-RPC or MCP message is bounded by the transport\'s handlerTimeoutMs');
        }
        called.push({ name, schemes });
        continue;
      }
      const path = pathFor(name, m);
      const verb = verbFor(name, m);
      const sources = argumentSources(`Registry.on(): ${service}.${name}`, m, verb, queryCredentials(schemes));
      const unsendable = requiredArrayProblem(sources.query, this.#settings.opts.errorOnMissingKeys ?? false);
      if (unsendable !== undefined) throw new TypeError(`Registry.on(): ${service}.${name}: ${unsendable}`);
      const conflict = this.#conflict(verb, path, service, planned);
      if (conflict !== undefined) throw new Error(`Registry.on(): ${service}.${name} exposes ${verb} ${path}, ${conflict}`);
      planned.push({ name, verb, path, schemes, names, sources });
    }
    if (this.protocol !== REST) {
      const procedures = called.map(({ name, schemes }) => this.#procedure({ instance, service, name, contract: contract.methods[name]!, schemes, interceptors }));
      for (const procedure of procedures) this.#procedures.set(procedure.name, procedure);
      return this;
    }
    for (const { name, verb, path, schemes, names, sources } of planned) {
      const plan = { instance, service, name, contract: contract.methods[name]!, schemes, interceptors, sources, path };
      const handler = createEndpoint(plan, this.#settings);
      const rateLimited = plan.contract.rateLimit !== false && (plan.contract.rateLimit !== undefined || this.#settings.rateLimit !== undefined);
      this.endpoints.operations.push(Object.freeze({ service, method: name, verb, path, contract: plan.contract, security: names, rateLimited }));
      let verbs = this.endpoints.routes.get(path);
      if (verbs === undefined) this.endpoints.routes.set(path, (verbs = new Map()));
      verbs.set(verb, handler);
      this.#owners.set(`${verb} ${path}`, `${service}.${name}`);
    }
    return this;
  }

  /**
   * One method of a JSON-RPC or MCP registry, compiled now (its arguments' readers, its answer's
   * writer) while the platform allows generating code. Throws when an MCP tool's schema cannot be
   * made (two different objects of one name among its descriptors).
   */
  #procedure(plan: MethodPlan): Procedure {
    const procedure = new Procedure(plan, this.#settings);
    const { codecs, opts } = this.#settings;
    for (const codec of codecs) for (const type of procedure.arguments.descriptors) codec.prepare?.(type, opts);
    if (this.protocol === JSONRPC) resultEnvelope(procedure, this.#settings);
    else {
      for (const codec of codecs) codec.prepare?.(procedure.returns, opts);
      try {
        toolOf(procedure, opts);
      } catch (e) {
        throw new TypeError(`Registry.on(): ${plan.service}.${plan.name} cannot be an MCP tool: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return procedure;
  }

  /** Why a method cannot be served by this JSON-RPC or MCP registry, or `undefined` when it can. */
  #leftOut(m: MethodContract): string | undefined {
    if (m.bodyStream !== undefined || m.returns instanceof StreamType) return 'streams are served by REST registries only';
    if (this.protocol === MCP && argumentObjectOf(m) === undefined) {
      return 'an MCP tool takes its arguments as one object: give the method named parameters, or one object parameter';
    }
    return undefined;
  }

  /**
   * Why `verb path` cannot be added beside the registry's endpoints and those `planned` with it
   * (methods of `service`): the same verb and path, or a pattern that leaves some request without
   * a winner (see `ambiguous`), naming the method that has it; `undefined` when it can.
   */
  #conflict(verb: EndpointVerb, path: string, service: string, planned: readonly Planned[]): string | undefined {
    const segments = path.slice(1).split('/');
    const taken = [...this.#owners, ...planned.map((p) => [`${p.verb} ${p.path}`, `${service}.${p.name}`] as const)];
    for (const [key, owner] of taken) {
      if (!key.startsWith(`${verb} `)) continue;
      const other = key.slice(verb.length + 1);
      if (other === path) return `already exposed by ${owner}`;
      if (ambiguous(segments, other.slice(1).split('/'))) return `which would match the same requests as ${key} of ${owner}, neither more specific`;
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

/** The methods whose REST-only options (`timeoutMs`, `cache`) a registry has warned of already. */
const toldRestOnly = new WeakSet<MethodContract>();

function warn(message: string): void {
  console.warn(message);
}

/** An MCP registry's options with their defaults, checked. */
function mcpSettings(options: McpOptions): McpSettings['mcp'] {
  const { name = 'lacquer', version = '1.0.0', instructions, origins = [] } = options;
  if (typeof name !== 'string' || typeof version !== 'string') throw new TypeError('Registry: mcp.name and mcp.version must be strings');
  if (instructions !== undefined && typeof instructions !== 'string') throw new TypeError('Registry: mcp.instructions must be a string');
  if (!Array.isArray(origins) || origins.some((o) => typeof o !== 'string')) throw new TypeError('Registry: mcp.origins must be an array of origins (\'https://app.example\')');
  return { name, version, instructions, origins: new Set(origins) };
}
