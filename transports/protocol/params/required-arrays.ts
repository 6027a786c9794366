// Which query parameters a registry cannot serve under its `errorOnMissingKeys`: a query has no
// text for the empty array, so an array that reading requires could never be sent empty.
import { ObjectType } from '../../../core/descriptors/object.ts';
import { formOf } from '../../../core/descriptors/visit.ts';
import type { MissingKeys } from '../../../core/options.ts';
import { defaultBreaksConstraints, isRequiredKey } from '../../../core/read/required.ts';
import { queryArray, queryKeysOf, type NamedParam } from './problems.ts';

/**
 * Why these query parameters cannot be read under `errorOnMissingKeys`, or `undefined`: a query
 * cannot carry the empty array (it is an absent key), so an array that reading requires, and that
 * may be empty, could never be sent empty. Under `false` an absent array reads as `[]`, and an
 * array with `minItems` of 1 or more is never empty: both are fine.
 */
export function requiredArrayProblem(
  query: readonly NamedParam[],
  errorOnMissingKeys: MissingKeys,
): string | undefined {
  if (!errorOnMissingKeys) return undefined;
  const root = new ObjectType(Object.fromEntries(query.map((p) => [p.name, p.type])));
  for (const param of query) {
    const spread = formOf(param.type) === 'object';
    const object = spread ? (param.type as ObjectType) : root;
    for (const key of queryKeysOf(param)) {
      const array = queryArray(object.fields[key]!);
      if (array === undefined || !isRequiredKey(object, key, errorOnMissingKeys) || defaultBreaksConstraints(array))
        continue;
      const where = spread
        ? `the member '${key}' of the query parameter '${param.name}'`
        : `the query parameter '${key}'`;
      const instead =
        errorOnMissingKeys === 'unless-default'
          ? 't.optional(t.array(...)) or .default([])'
          : 't.optional(t.array(...))';
      return (
        `${where} is required (errorOnMissingKeys: ${JSON.stringify(errorOnMissingKeys)}), but a query cannot carry the empty array ` +
        `(it is an absent key, which would be refused): declare it ${instead}`
      );
    }
  }
  return undefined;
}
