/**
 * `tidemark:producer:send`: one traced `producer.send()`. A start subscriber may add headers (trace context) to
 * the record before it is encoded; the application's record object is never changed.
 */
import {
  type HeaderCarrier,
  type ProducerSendContext,
  TRACING_CHANNELS,
  type TracedRecord,
  traced,
} from './channels.js';

/** Runs `send` traced when anyone subscribes, else as it is (nothing is built). */
export function traceSend<R extends TracedRecord, T extends ProducerSendContext['result']>(
  record: R,
  clientId: string,
  send: (record: R) => Promise<T>,
): Promise<T> {
  const channel = TRACING_CHANNELS.producerSend;
  // A record that is no object fails in send() with its typed error, untraced.
  if (!traced(channel) || typeof record !== 'object' || record === null) return send(record);
  const context: ProducerSendContext = { clientId, record, topic: record.topic, headers: {} };
  return channel.tracePromise(() => send(withHeaders(record, context.headers)), context) as Promise<T>;
}

/** `record` with the carrier's headers after its own; the record itself when there are none. */
function withHeaders<R extends TracedRecord>(record: R, carrier: HeaderCarrier): R {
  const added = Object.entries(carrier);
  if (added.length === 0) return record;
  const own = record.headers;
  const headers =
    own === undefined || own === null
      ? []
      : Array.isArray(own)
        ? [...(own as readonly { key: string; value: TracedRecord['key'] }[])]
        : Object.entries(own).map(([key, value]) => ({ key, value }));
  for (const [key, value] of added) headers.push({ key, value });
  return { ...record, headers };
}

/** What a client lends its producers: the id their sends are traced under, and a count of sends (metrics). */
export interface ProducerObserver {
  readonly clientId: string;
  /** Called at every `send()` (with 1) and `sendBatch()` (with its length), before anything else; must not throw. */
  onSend(records: number): void;
}
