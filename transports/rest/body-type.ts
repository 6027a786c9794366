import { t } from '../../core/descriptors/index.ts';
import type { Type } from '../../core/descriptors/type.ts';

/**
 * The descriptor of a request body, shared by the registry and the client: none without
 * parameters, the parameter itself for one, a tuple of the parameters for several.
 */
export function bodyType(params: readonly Type[]): Type | undefined {
  if (params.length === 0) return undefined;
  if (params.length === 1) return params[0];
  return t.tuple(params);
}
