import type { Call } from '../../../core/contract/call.ts';
import { calls, type EndpointCall } from './call.ts';
import { isThenable } from '../thenable.ts';

/**
 * Wraps the calls of endpoints after their body is decoded: it may read `call.args`, time or skip
 * `next()`, replace the result, or throw `HttpError`. `next()` runs the next interceptor, then the
 * method, and resolves to the result.
 */
export type Interceptor = (call: Call, next: () => Promise<unknown>) => Promise<unknown>;

/**
 * Runs `method` inside `chain` (the first outermost): the result, or a promise of it. `next()` may
 * be called once per interceptor: a second call rejects, and the answer is a 500 naming the mistake
 * whatever the interceptor does with the rejection, so a call is never run twice nor answered
 * twice. An interceptor that throws fails the call as one that rejects does.
 *
 * `next()` always returns a promise, but when what it runs answers at once, that promise is
 * fulfilled already, with a value known here: an interceptor that returns it as it is (`return
 * next()`) passes that value through without waiting, so a call answered at once is still answered
 * at once, as it would be without the interceptor.
 */
export function intercept(
  chain: readonly Interceptor[],
  call: EndpointCall,
  method: (call: EndpointCall) => unknown,
): unknown {
  return step(chain, call, method, 0);
}

/** Runs `chain[index]` with its `next()`, or the method after the last one. */
function step(
  chain: readonly Interceptor[],
  call: EndpointCall,
  method: (call: EndpointCall) => unknown,
  index: number,
): unknown {
  if (index === chain.length) return method(call);
  let called = false;
  let handed: Promise<unknown> | undefined;
  let handedValue: unknown;
  const returned = chain[index]!(call, () => {
    if (called) {
      calls.misuse(call, `interceptor ${index + 1} of ${chain.length} called next() twice`);
      return observed(Promise.reject(calls.mistake(call)));
    }
    called = true;
    let inner: unknown;
    try {
      inner = step(chain, call, method, index + 1);
    } catch (error) {
      return observed(Promise.reject(error));
    }
    if (isThenable(inner)) return observed(Promise.resolve(inner));
    handedValue = inner;
    return (handed = Promise.resolve(inner));
  });
  return handed !== undefined && returned === handed ? handedValue : returned;
}

const ignore = () => {};

/**
 * `promise`, marked as observed: an interceptor that drops what `next()` gave it must not leave a
 * rejection unhandled, which would end the process. The interceptor still sees the rejection.
 */
function observed(promise: Promise<unknown>): Promise<unknown> {
  promise.catch(ignore);
  return promise;
}
