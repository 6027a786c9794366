import type { Type } from '../descriptors/type.ts';
import { withAllErrors } from './collect.ts';
import { compileReader } from './compile-reader.ts';
import type { Reader, ReaderContext } from './context.ts';

/**
 * The fail-fast closure reader of `type`, which on failure reads the tree again with the
 * collecting readers (compiled on the first failure) so that the failure lists every error.
 * What the codecs' read pass falls back to, and what Standard Schema validates with.
 */
export function closuresWithAllErrors(type: Type, ctx: ReaderContext, restart?: () => void): Reader {
  let collecting: Reader | undefined;
  return withAllErrors(
    compileReader(type, ctx),
    () => (collecting ??= compileReader(type, { ...ctx, collect: true })),
    restart,
  );
}
