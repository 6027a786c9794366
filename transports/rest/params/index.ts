// Placeholder until the text forms land.
import type { Type } from '../../../core/descriptors/type.ts';
import type { Opts } from '../../../core/options.ts';
export interface NamedParam { readonly name: string; readonly type: Type }
export function segmentProblem(_type: Type): string | undefined { return undefined; }
export function queryProblem(_type: Type): string | undefined { return undefined; }
export function textReader(_path: readonly NamedParam[], _query: readonly NamedParam[], _opts: Opts): (pathValues: Readonly<Record<string, string>>, search: string) => Record<string, unknown> {
  return (p) => ({ ...p });
}
export function textWriter(_path: readonly NamedParam[], _query: readonly NamedParam[], _opts: Opts): { segments(args: Record<string, unknown>): Record<string, string>; query(args: Record<string, unknown>): string } {
  return { segments: (a) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, encodeURIComponent(String(v))])), query: () => '' };
}
