/**
 * `traced()` on a runtime whose TracingChannel lacks `hasSubscribers` (Bun 1.4; Node before 20.13): it asks the
 * five channels the tracing channel is made of, so an unobserved client still builds nothing.
 */
import { channel, type TracingChannel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { traced } from '../../../src/observability/channels.js';

/** A tracing channel as Bun 1.4 has it: the five sub-channels, no `hasSubscribers` of its own. */
function withoutOwnHasSubscribers(name: string): TracingChannel<unknown, object> {
  const part = (event: string) => channel(`tracing:${name}:${event}`);
  return {
    start: part('start'),
    end: part('end'),
    asyncStart: part('asyncStart'),
    asyncEnd: part('asyncEnd'),
    error: part('error'),
  } as unknown as TracingChannel<unknown, object>;
}

describe('traced', () => {
  it('is false with nobody subscribed and true once any one of the five channels is', () => {
    const name = `tidemark-test-traced-${process.pid}`;
    const tracing = withoutOwnHasSubscribers(name);
    expect(traced(tracing)).toBe(false);
    const onError = () => {};
    tracing.error.subscribe(onError);
    try {
      expect(traced(tracing)).toBe(true);
    } finally {
      tracing.error.unsubscribe(onError);
    }
    expect(traced(tracing)).toBe(false);
  });
});
