/**
 * W3C Trace Context (`traceparent`, `tracestate`) as a TextMapPropagator: the OpenTelemetry integration's
 * default, so a trace crosses Kafka without the application registering a propagator. Part of
 * `tidemark/opentelemetry` (it imports `@opentelemetry/api`).
 */
import {
  type Context,
  createTraceState,
  isSpanContextValid,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  TraceFlags,
  trace,
} from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Injects and extracts `traceparent` (version 00) and `tracestate`. */
export const w3cTraceContext: TextMapPropagator = {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpanContext(context);
    if (span === undefined || !isSpanContextValid(span)) return;
    const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
    setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-${flags}`);
    const state = span.traceState?.serialize();
    if (state) setter.set(carrier, 'tracestate', state);
  },
  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const raw = getter.get(carrier, 'traceparent');
    const header = Array.isArray(raw) ? raw[0] : raw;
    const match = header === undefined ? null : TRACEPARENT.exec(header.trim());
    if (match === null) return context;
    const state = getter.get(carrier, 'tracestate');
    const stateText = Array.isArray(state) ? state.join(',') : state;
    return trace.setSpanContext(context, {
      traceId: match[1],
      spanId: match[2],
      traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
      isRemote: true,
      traceState: stateText ? createTraceState(stateText) : undefined,
    });
  },
  fields: () => ['traceparent', 'tracestate'],
};
