// JSON-RPC 2.0 as a protocol a registry serves, and what MCP builds on it: one route,
// `POST {prefix}`, over the registry's methods as procedures called by name.
import type { MethodContract } from '../../core/contract/method.ts';
import { StreamType } from '../../core/descriptors/stream.ts';
import type { MethodPlan } from '../protocol/call/method-plan.ts';
import { Procedure } from '../protocol/call/procedure.ts';
import type { ProtocolRoutes, RegistryContext, ServedProtocol } from '../protocol/serving.ts';
import type { Handler } from '../protocol/types.ts';
import { resultEnvelope, rpcHandler } from './handler.ts';
import { ErrorAnswer } from './messages.ts';
import type { MessageSettings } from './message-request.ts';

/** Methods called by name: `JSONRPC`. */
export const JSONRPC_PROTOCOL: ServedProtocol = {
  name: 'JSONRPC',
  open: (registry) =>
    new ProcedureRoutes(registry, {
      route: (procedures, message) => rpcHandler(procedures, { ...message, maxBatch: registry.maxBatch }),
      compile: (procedure) => void resultEnvelope(procedure, registry.settings),
    }),
};

/** What a protocol of messages adds to {@link ProcedureRoutes}. */
export interface MessageProtocol {
  /** Why it leaves out a method it could otherwise call by message, or `undefined`. */
  readonly leftOut?: (contract: MethodContract) => string | undefined;
  /** Its one route, over the registry's procedures by name. */
  readonly route: (procedures: ReadonlyMap<string, Procedure>, message: MessageSettings) => Handler;
  /** Compiles what a procedure's answers need (while the platform allows generating code); throws when it cannot be served. */
  readonly compile: (procedure: Procedure, plan: MethodPlan) => void;
}

/** The methods whose REST-only options (`timeoutMs`, `cache`) a registry has warned of already. */
const toldRestOnly = new WeakSet<MethodContract>();

/**
 * A registry whose methods are procedures called by message, on one route: JSON-RPC's, and MCP's
 * over it. A name is served once; streams are REST's.
 */
export class ProcedureRoutes implements ProtocolRoutes {
  readonly #procedures = new Map<string, Procedure>();

  constructor(
    private readonly registry: RegistryContext,
    private readonly protocol: MessageProtocol,
  ) {
    const { codecs, opts, maxBodyBytes, acceptPost } = registry.settings;
    for (const codec of codecs) codec.prepare?.(ErrorAnswer);
    registry.endpoints.routes.set(
      '/',
      new Map([['POST', protocol.route(this.#procedures, { codecs, opts, maxBodyBytes, acceptPost })]]),
    );
  }

  leftOut(contract: MethodContract): string | undefined {
    if (contract.bodyStream !== undefined || contract.returns instanceof StreamType)
      return 'streams are served by REST registries only';
    return this.protocol.leftOut?.(contract);
  }

  serve(plans: readonly MethodPlan[]): void {
    const { settings, onWarning } = this.registry;
    for (const { service, name, contract } of plans) {
      const owner = this.#procedures.get(name)?.service;
      if (owner !== undefined)
        throw new Error(`Registry.on(): ${service} exposes the method ${name}, already exposed by ${owner}`);
      const ignored = (['timeoutMs', 'cache'] as const).filter((option) => contract[option] !== undefined);
      // Said once per method, by the first JSON-RPC or MCP registry serving it, not by each.
      if (ignored.length > 0 && !toldRestOnly.has(contract)) {
        toldRestOnly.add(contract);
        onWarning(
          `Registry.on(): ${service}.${name}'s ${ignored.join(' and ')} ${ignored.length > 1 ? 'apply' : 'applies'} to REST endpoints only; ` +
            "a JSON-RPC or MCP message is bounded by the transport's handlerTimeoutMs",
        );
      }
    }
    // Compiled now (arguments' readers, the answer's writer) while the platform allows generating code.
    const procedures = plans.map((plan) => {
      const procedure = new Procedure(plan, settings);
      for (const codec of settings.codecs)
        for (const type of procedure.arguments.descriptors) codec.prepare?.(type, settings.opts);
      this.protocol.compile(procedure, plan);
      return procedure;
    });
    for (const procedure of procedures) this.#procedures.set(procedure.name, procedure);
  }
}
