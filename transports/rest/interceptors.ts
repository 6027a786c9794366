import type { Call } from '../../core/contract/call.ts';
import type { EndpointCall } from './call.ts';

/**
 * Wraps the calls of endpoints after their body is decoded: it may read `call.args`, time or skip
 * `next()`, replace the result, or throw `HttpError`. `next()` runs the next interceptor, then the
 * method, and resolves to the result.
 */
export type Interceptor = (call: Call, next: () => Promise<unknown>) => Promise<unknown>;

/**
 * Runs `method` inside `chain` (the first outermost). `next()` may be called once per interceptor:
 * a second call rejects, and the answer is a 500 naming the mistake whatever the interceptor does
 * with the rejection, so a call is never run twice nor answered twice. An interceptor that throws
 * rejects as one that rejects does.
 */
export function intercept(chain: readonly Interceptor[], call: EndpointCall, method: () => unknown): Promise<unknown> {
  // Plain functions rather than async ones: a chain of one interceptor around a method that
  // answers at once makes one promise (next()'s), not one per step and its resumptions.
  const step = (index: number): Promise<unknown> => {
    try {
      if (index === chain.length) return Promise.resolve(method());
      let called = false;
      return Promise.resolve(chain[index]!(call, () => {
        if (called) {
          call.misuse(`interceptor ${index + 1} of ${chain.length} called next() twice`);
          return Promise.reject(call.mistake);
        }
        called = true;
        return step(index + 1);
      }));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0);
}
