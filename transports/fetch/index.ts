// `lacquer/fetch`: the registry on the Fetch API (Workers, Deno, Bun, any Request/Response runtime).
export { toFetchHandler } from './handler.ts';
export type { FetchHandlerOptions } from './options.ts';
export type { CorsOptions } from '../http/options.ts';
export type { MountableEndpoints } from '../http/route-table.ts';
