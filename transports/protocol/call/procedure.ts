import type { MethodContract } from '../../../core/contract/method.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { ReadError } from '../../../core/errors/read-error.ts';
import type { Opts } from '../../../core/options.ts';
import { authenticate } from './authenticate.ts';
import { EndpointCall, calls, type CallSite } from './call.ts';
import { callFailure, type CallFailure, type FailureSettings } from './call-failure.ts';
import { intercept } from './interceptors.ts';
import type { MethodPlan } from './method-plan.ts';
import { methodLimiter, type RateLimiter, type RateLimitVerdict } from './rate-limit.ts';
import type { RateLimitStore } from '../../../core/contract/method.ts';
import type { ResponseReport } from '../options.ts';
import { reportResponse } from './response-report.ts';
import { problemForError } from '../problem.ts';
import type { Protocol, ServerSpan, Telemetry } from './telemetry.ts';
import { isThenable } from '../thenable.ts';
import type { EndpointRequest } from '../types.ts';
import { MessageArgumentsReader } from './message-arguments.ts';
import type { MessagePart } from './message-part.ts';

/** What the procedures of one registry share. */
export interface ProcedureSettings extends FailureSettings {
  readonly opts: Opts;
  readonly onResponse: ((report: ResponseReport) => void) | undefined;
  readonly telemetry: Telemetry | undefined;
  readonly protocol: Protocol;
  /** The registry's rate limit, and the store it was given. */
  readonly rateLimit?: RateLimiter | undefined;
  readonly rateLimitStore?: RateLimitStore | undefined;
}

/**
 * How one call ended: the method's value, or a failure. `refused` when security refused the
 * caller, `limited` when it was over its rate limit (a 429 with `Retry-After`), `params` when the
 * arguments did not read; otherwise the method (or an interceptor) failed.
 */
export type Outcome =
  | { readonly ok: true; readonly call: EndpointCall; readonly value: unknown }
  | ({
      readonly ok: false;
      readonly call: EndpointCall;
      readonly stage: 'refused' | 'limited' | 'params' | 'method';
    } & CallFailure);

/**
 * One method, callable by message: each call is authenticated, then its arguments are read, then
 * the interceptors and the method run with its {@link EndpointCall}, as a REST endpoint's are.
 */
export class Procedure {
  readonly service: string;
  readonly name: string;
  readonly contract: MethodContract;
  /** What the method answers. */
  readonly returns: Type;
  readonly arguments: MessageArgumentsReader;
  readonly #plan: MethodPlan;
  readonly #settings: ProcedureSettings;
  readonly #site: CallSite;
  readonly #run: (call: EndpointCall) => unknown;
  /** The method's rate limit: its own, or the registry's. */
  readonly #limiter: RateLimiter | undefined;
  /** The spans of calls under way, with telemetry. */
  readonly #spans = new WeakMap<EndpointCall, ServerSpan>();

  constructor(plan: MethodPlan, settings: ProcedureSettings) {
    const { contract } = plan;
    this.#plan = plan;
    this.#settings = settings;
    this.service = plan.service;
    this.name = plan.name;
    this.contract = contract;
    this.returns = contract.returns as Type;
    this.arguments = new MessageArgumentsReader(contract, settings.opts);
    const returnsVoid = this.returns.kind === 'void';
    this.#site = { service: plan.service, method: plan.name, status: 200, returnsVoid };
    const method = (plan.instance as Record<string, (...args: unknown[]) => unknown>)[plan.name]!;
    this.#run = (call) => method.apply(plan.instance, [...call.args, call]);
    this.#limiter = methodLimiter(
      contract.rateLimit,
      settings.rateLimit,
      settings.rateLimitStore,
      plan.service,
      plan.name,
    );
  }

  /**
   * Runs one call made by `request` (the HTTP request carrying the message), its arguments read
   * from `params` once the caller is admitted. Never rejects.
   */
  invoke(request: EndpointRequest, requestId: string, params: MessagePart | undefined): Outcome | Promise<Outcome> {
    const call = new EndpointCall(
      this.#site,
      request,
      requestId,
      this.#settings.onResponse === undefined ? 0 : performance.now(),
    );
    const { telemetry } = this.#settings;
    if (telemetry !== undefined) {
      const prefix = request.prefix ?? '';
      this.#spans.set(
        call,
        telemetry.serverSpan({
          protocol: this.#settings.protocol,
          verb: request.method,
          route: prefix,
          path: request.requestPath ?? prefix + request.path,
          service: this.service,
          method: this.name,
          headers: request.headers,
          clientAddress: request.ip,
        }),
      );
    }
    const { schemes } = this.#plan;
    if (schemes.length > 0) {
      let pending: void | Promise<void>;
      try {
        pending = authenticate(call, schemes);
      } catch (e) {
        return this.#failed(call, 'refused', e);
      }
      if (pending !== undefined)
        return pending.then(
          () => this.#admitted(call, params),
          (e: unknown) => this.#failed(call, 'refused', e),
        );
    }
    return this.#admitted(call, params);
  }

  /** Whether {@link written} has anyone to tell (`onResponse`, telemetry): without, a protocol need not call it. */
  get observed(): boolean {
    return this.#settings.onResponse !== undefined || this.#settings.telemetry !== undefined;
  }

  /**
   * The message of a call was answered: tells `onResponse` and ends the call's span, with the status
   * its answer stands for (200, or its problem's), or `sent`, the status the transport answered
   * the whole message with instead (a 503 at the handler timeout).
   */
  written(outcome: Outcome, prefix: string, sent?: number): void {
    const { call } = outcome;
    const status = sent ?? (outcome.ok ? 200 : outcome.doc.status);
    this.#spans.get(call)?.end(status, calls.failure(call));
    const { onResponse } = this.#settings;
    if (onResponse !== undefined) reportResponse(onResponse, call, prefix, status);
  }

  /** Fails a call that had returned (its value could not be written), as the method would have. */
  fail(call: EndpointCall, error: unknown): Outcome & { readonly ok: false } {
    return this.#failed(call, 'method', error);
  }

  /** The caller is admitted: counted by the rate limit, if any, before its arguments are read. */
  #admitted(call: EndpointCall, params: MessagePart | undefined): Outcome | Promise<Outcome> {
    if (calls.mistake(call) !== undefined) return this.#failed(call, 'method', undefined);
    const limiter = this.#limiter;
    if (limiter === undefined) return this.#withinLimit(call, params);
    let verdict: RateLimitVerdict | Promise<RateLimitVerdict>;
    try {
      verdict = limiter.hit(call);
    } catch (e) {
      return this.#failed(call, 'method', e);
    }
    if (verdict instanceof Promise)
      return verdict.then(
        (v) => this.#counted(call, params, v),
        (e: unknown) => this.#failed(call, 'method', e),
      );
    return this.#counted(call, params, verdict);
  }

  /** The call counted: refused over the limit (a 429, not reported as a fault), else gone on with. */
  #counted(call: EndpointCall, params: MessagePart | undefined, verdict: RateLimitVerdict): Outcome | Promise<Outcome> {
    calls.setRateLimit(call, verdict.state);
    const refusal = verdict.refusal;
    if (refusal === undefined) return this.#withinLimit(call, params);
    return {
      ok: false,
      call,
      stage: 'limited',
      error: undefined,
      doc: refusal.doc,
      headers: { 'retry-after': refusal.retryAfter },
    };
  }

  #withinLimit(call: EndpointCall, params: MessagePart | undefined): Outcome | Promise<Outcome> {
    try {
      calls.setArgs(call, this.arguments.read(params));
    } catch (e) {
      if (!(e instanceof ReadError)) return this.#failed(call, 'method', e);
      // Bad arguments are the caller's: a 400 problem listing them, not reported as a fault.
      calls.setFailure(call, e);
      return { ok: false, call, stage: 'params', error: e, doc: problemForError(e, false), headers: {} };
    }
    let result: unknown;
    try {
      const { interceptors } = this.#plan;
      result = interceptors.length === 0 ? this.#run(call) : intercept(interceptors, call, this.#run);
      if (isThenable(result)) {
        return Promise.resolve(result).then(
          (value) => this.#returned(call, value),
          (e: unknown) => this.#failed(call, 'method', e),
        );
      }
    } catch (e) {
      return this.#failed(call, 'method', e);
    }
    return this.#returned(call, result);
  }

  #returned(call: EndpointCall, value: unknown): Outcome {
    const mistake = calls.mistake(call);
    return mistake === undefined ? { ok: true, call, value } : this.#failed(call, 'method', mistake);
  }

  #failed(call: EndpointCall, stage: 'refused' | 'method', thrown: unknown): Outcome & { readonly ok: false } {
    return { ok: false, call, stage, ...callFailure(call, this.#site, thrown, this.#settings) };
  }
}
