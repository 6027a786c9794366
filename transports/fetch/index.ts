// `lacquer/fetch`: the registry on the Fetch API (Workers, Deno, Bun, any Request/Response runtime).
// Registries, errors and CORS options come from `lacquer`.
export { toFetchHandler } from './handler.ts';
export type { FetchHandlerOptions } from './options.ts';
