// Seeing through `t.lazy`, in one place. Type-only imports: the read and write passes import this
// while the descriptor classes are still being defined.
import type { LazyType } from './lazy.ts';
import type { Type } from './type.ts';

/**
 * The descriptor `type` stands for: itself, or a `t.lazy`'s target, followed through further
 * `t.lazy`s (a chain that comes back to itself is refused by `target`, so this ends). With
 * `keepDefault`, a `t.lazy` with a `.default()` of its own stops there: its default is what an
 * absent key reads and writes as. The one way `t.lazy` is seen through.
 */
export function unwrapLazy(type: Type, keepDefault = false): Type {
  while (type.kind === 'lazy' && !(keepDefault && type.hasDefault)) type = (type as LazyType).target;
  return type;
}
