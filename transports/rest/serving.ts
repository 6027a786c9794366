// REST as a protocol a registry serves: each method an endpoint at its own verb and path, checked
// against the registry's other endpoints (the same verb and path, or patterns that would match the
// same requests, are refused naming both methods).
import type { EndpointVerb } from '../../core/contract/method.ts';
import type { MethodPlan } from '../protocol/call/method-plan.ts';
import { queryCredentials } from '../protocol/call/security.ts';
import { requiredArrayProblem } from '../protocol/params/index.ts';
import { ambiguous } from '../protocol/pipeline/router.ts';
import type { ProtocolRoutes, RegistryContext, ServedProtocol } from '../protocol/serving.ts';
import { argumentSources } from './arguments.ts';
import { createEndpoint, type EndpointPlan } from './endpoint.ts';
import { pathFor, verbFor } from './verb.ts';

interface Planned {
  readonly plan: EndpointPlan;
  readonly verb: EndpointVerb;
}

/** Each method an endpoint: `REST`, the specification's `lib::REST`. */
export const REST_PROTOCOL: ServedProtocol = {
  name: 'REST',
  open: (registry) => new RestRoutes(registry),
};

class RestRoutes implements ProtocolRoutes {
  /** Which method (`Service.method`) claimed each `VERB /path`, for clear conflict errors. */
  readonly #owners = new Map<string, string>();

  constructor(private readonly registry: RegistryContext) {}

  leftOut(): undefined {
    return undefined;
  }

  serve(plans: readonly MethodPlan[]): void {
    const { endpoints, settings } = this.registry;
    const planned: Planned[] = [];
    for (const plan of plans) {
      const { service, name, contract } = plan;
      const path = pathFor(name, contract);
      const verb = verbFor(name, contract);
      const sources = argumentSources(
        `Registry.on(): ${service}.${name}`,
        contract,
        verb,
        queryCredentials(plan.schemes),
      );
      const unsendable = requiredArrayProblem(sources.query, settings.opts.errorOnMissingKeys ?? false);
      if (unsendable !== undefined) throw new TypeError(`Registry.on(): ${service}.${name}: ${unsendable}`);
      const conflict = this.#conflict(verb, path, planned);
      if (conflict !== undefined)
        throw new Error(`Registry.on(): ${service}.${name} exposes ${verb} ${path}, ${conflict}`);
      planned.push({ plan: { ...plan, sources, path }, verb });
    }
    for (const { plan, verb } of planned) {
      const handler = createEndpoint(plan, settings);
      const { service, name, contract, path } = plan;
      const rateLimited =
        contract.rateLimit !== false && (contract.rateLimit !== undefined || settings.rateLimit !== undefined);
      endpoints.operations.push(
        Object.freeze({ service, method: name, verb, path, contract, security: plan.schemeNames, rateLimited }),
      );
      let verbs = endpoints.routes.get(path);
      if (verbs === undefined) endpoints.routes.set(path, (verbs = new Map()));
      verbs.set(verb, handler);
      this.#owners.set(`${verb} ${path}`, `${service}.${name}`);
    }
  }

  /**
   * Why `verb path` cannot be added beside the registry's endpoints and those `planned` with it:
   * the same verb and path, or a pattern that leaves some request without a winner (see
   * `ambiguous`), naming the method that has it; `undefined` when it can.
   */
  #conflict(verb: EndpointVerb, path: string, planned: readonly Planned[]): string | undefined {
    const segments = path.slice(1).split('/');
    const taken = [
      ...this.#owners,
      ...planned.map((p) => [`${p.verb} ${p.plan.path}`, `${p.plan.service}.${p.plan.name}`] as const),
    ];
    for (const [key, owner] of taken) {
      if (!key.startsWith(`${verb} `)) continue;
      const other = key.slice(verb.length + 1);
      if (other === path) return `already exposed by ${owner}`;
      if (ambiguous(segments, other.slice(1).split('/')))
        return `which would match the same requests as ${key} of ${owner}, neither more specific`;
    }
    return undefined;
  }
}
