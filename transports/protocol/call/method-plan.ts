import type { MethodContract } from '../../../core/contract/method.ts';
import type { Interceptor } from './interceptors.ts';
import type { SecurityScheme } from './security.ts';

/** One service method as a registry exposes it, whatever its protocol. */
export interface MethodPlan {
  readonly instance: object;
  readonly service: string;
  readonly name: string;
  readonly contract: MethodContract;
  /** The schemes that may admit a caller; none for a public method. */
  readonly schemes: readonly SecurityScheme[];
  /** Their names, as the contract gives them (OpenAPI's `security`). */
  readonly schemeNames: readonly string[];
  /** Registry interceptors, then the service's. */
  readonly interceptors: readonly Interceptor[];
}
