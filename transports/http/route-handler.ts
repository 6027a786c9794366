import type { HttpRequest } from './request.ts';
import type { HttpResponse } from './response.ts';

/** A route handler: reads `req`, fills `res`; may be `async`. Throw `HttpError` for an error status. */
export type RouteHandler = (req: HttpRequest, res: HttpResponse) => void | Promise<void>;
