import type { Type } from '../descriptors/type.ts';
import { ByDepth } from '../util/by-depth.ts';
import { dependsOnDepth } from './absent.ts';

/**
 * The names of a generated writer's functions: one function per descriptor (an array's element is
 * written in two places), or one per depth for a descriptor whose writing depends on its depth
 * (`dependsOnDepth`). A generated function never calls itself (`t.lazy` goes to a closure writer).
 */
export class FunctionNames {
  private readonly names = new Map<Type, string>();
  private readonly namesAt = new ByDepth<Type, string>();

  /** The name of the function of `type` at `depth`; `generate` emits it, the first time, and names it. */
  get(type: Type, depth: number, generate: () => string): string {
    if (dependsOnDepth(type)) return this.namesAt.get(type, depth, generate);
    let name = this.names.get(type);
    if (name === undefined) this.names.set(type, (name = generate()));
    return name;
  }
}
