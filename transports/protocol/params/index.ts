// Named parameters as text: path segments and query strings, read on the server and written by
// the typed client, with the same descriptors and rules as bodies.
export { paramsProblem, queryArray, queryKeysOf, queryProblem, segmentProblem, type NamedParam } from './problems.ts';
export { requiredArrayProblem } from './required-arrays.ts';
export { textReader, type TextReader } from './text-reader.ts';
export { textWriter, type TextWriter } from './text-writer.ts';
