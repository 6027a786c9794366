import {
  ROOT_CONTEXT,
  TraceFlags,
  isSpanContextValid,
  trace,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';

/** `traceparent` (W3C Trace Context, level 1): version 00, trace id, parent id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The caller's trace context from `traceparent` (and `tracestate` left aside), for when no global
 * propagator is registered (the API's default propagates nothing): a valid one becomes the remote
 * parent, anything else is ignored, as the W3C rules say.
 */
export function parentFromTraceparent(value: string | null): Context {
  const match = value === null ? null : TRACEPARENT.exec(value.trim());
  if (match === null) return ROOT_CONTEXT;
  const parent: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(parent) ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}

/** The `traceparent` of `span`'s context. */
export function traceparentOf(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-0${(span.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}
