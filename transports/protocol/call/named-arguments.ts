/**
 * The one object an implementation of named parameters receives, from the values read by name:
 * the declared names that were read, and nothing else. Its prototype is `null`, so that a
 * parameter named `constructor` or `toString` left out is `undefined`, not a built-in function.
 */
export function namedArguments(
  names: readonly string[],
  read: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const args = Object.create(null) as Record<string, unknown>;
  for (const name of names) if (Object.hasOwn(read, name)) args[name] = read[name];
  return args;
}

/** {@link namedArguments} from values in declared order (a JSON-RPC array of params); `undefined` is a value left out. */
export function namedArgumentsOf(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const args = Object.create(null) as Record<string, unknown>;
  names.forEach((name, i) => {
    if (values[i] !== undefined) args[name] = values[i];
  });
  return args;
}
