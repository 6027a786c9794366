// A protocol as a value the registry is given: its name, and how it serves a registry's methods
// (REST's endpoints, JSON-RPC's and MCP's one route). The registry does what every protocol needs
// (a service's contract, its methods, their security schemes and interceptors) and leaves the
// rest to the protocol, so that it never asks which protocol it speaks.
import type { Codec } from '../../core/codec.ts';
import type { MethodContract, RateLimitStore } from '../../core/contract/method.ts';
import type { Opts } from '../../core/options.ts';
import type { MethodPlan } from './call/method-plan.ts';
import type { RateLimiter } from './call/rate-limit.ts';
import type { Protocol, Telemetry } from './call/telemetry.ts';
import type { ErrorContext, McpOptions, ResponseReport } from './options.ts';
import type { Endpoints } from './pipeline/endpoints.ts';
import type { StreamLimits } from './streams/frames.ts';

/** What every method of one registry shares, whatever its protocol: the registry's options, resolved and checked. */
export interface RegistrySettings {
  readonly codecs: readonly Codec[];
  readonly opts: Opts;
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, context: ErrorContext) => void;
  readonly onResponse: ((report: ResponseReport) => void) | undefined;
  readonly maxBodyBytes: number;
  /** `Accept-Post`: every media type the codecs read. */
  readonly acceptPost: string;
  /** A stream's heartbeats and limits. */
  readonly streamLimits: StreamLimits;
  /** The most bytes one item of a request stream may take. */
  readonly maxItemBytes: number;
  /** The most bytes a request stream's body may take in all. */
  readonly maxStreamBytes: number;
  /** Told of each request, when the registry has telemetry. */
  readonly telemetry: Telemetry | undefined;
  /** The protocol of the registry: its calls' spans say which. */
  readonly protocol: Protocol;
  /** The registry's rate limit, and the store it was given (methods with their own limit count there too). */
  readonly rateLimit?: RateLimiter | undefined;
  readonly rateLimitStore?: RateLimitStore | undefined;
}

/** What a protocol is given to serve one registry. */
export interface RegistryContext {
  /** The registry's routes: the protocol adds its own. */
  readonly endpoints: Endpoints;
  readonly settings: RegistrySettings;
  /** The most request objects of one JSON-RPC batch. */
  readonly maxBatch: number;
  /** An MCP registry's options, as given. */
  readonly mcp: McpOptions;
  /** Told of a method a protocol leaves out, or of an option it ignores. */
  readonly onWarning: (message: string) => void;
}

/** A protocol a registry speaks: `new Registry(opts, JSONRPC)` is given the JSON-RPC one. */
export interface ServedProtocol {
  readonly name: Protocol;
  /** Starts serving one registry: called once, as the registry is made. */
  open(registry: RegistryContext): ProtocolRoutes;
}

/** How a protocol serves the methods of one registry. */
export interface ProtocolRoutes {
  /** Why this protocol leaves the method of `contract` out (the registry warns so), or `undefined` when it serves it. */
  leftOut(contract: MethodContract): string | undefined;
  /**
   * Serves the methods of one service. Throws when one cannot be served (a `TypeError`; an `Error`
   * for a verb and path, or a name, another method has), before any of them is registered.
   */
  serve(plans: readonly MethodPlan[]): void;
}
