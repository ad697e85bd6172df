/**
 * Observing requests on the wire: the context of `tidemark:request` and the client's own request metrics. The
 * connection calls `observeRequest` only when someone observes (a subscriber, or a client's metrics), fills
 * the context as it writes (`noteWritten`) and measures the response through `measuredDecode`; everything
 * else lives here, so the hook in src/network/connection.ts stays a few lines.
 */
import type { Reader } from '../../codecs/reader.js';
import { type RequestContext, TRACING_CHANNELS, traced } from './channels.js';

/** Told of every request a client's connections settle (the client's metrics). Must not throw. */
export type RequestObserver = (request: RequestContext) => void;

/** The connection's side of a request, as far as observation needs it. */
export interface ObservedConnection {
  readonly nodeId: number | undefined;
  readonly address: string;
}

/** Whether a request on a connection with `observer` needs a context at all. */
export function requestObserved(observer: RequestObserver | undefined): boolean {
  return observer !== undefined || traced(TRACING_CHANNELS.request);
}

/**
 * Runs `send` (which writes the request and resolves with its response) with a fresh context, published on
 * `tidemark:request` when anyone subscribes and handed to `observer` once it settles.
 */
export function observeRequest(
  connection: ObservedConnection,
  api: { name: string; key: number },
  clientId: string | null,
  observer: RequestObserver | undefined,
  send: (context: RequestContext) => Promise<unknown>,
): Promise<unknown> {
  const context: RequestContext = {
    brokerId: connection.nodeId,
    address: connection.address,
    clientId,
    apiName: api.name,
    apiKey: api.key,
    version: -1,
    correlationId: -1,
    requestBytes: 0,
    responseBytes: 0,
    startedAt: performance.now(),
    durationMs: 0,
  };
  const run = () =>
    send(context).then(
      (result) => {
        settle(context, observer, undefined);
        return result;
      },
      (error: unknown) => {
        settle(context, observer, error);
        throw error;
      },
    );
  const channel = TRACING_CHANNELS.request;
  return traced(channel) ? channel.tracePromise(run, context) : run();
}

function settle(context: RequestContext, observer: RequestObserver | undefined, error: unknown): void {
  context.durationMs = performance.now() - context.startedAt;
  if (error !== undefined) context.error = error;
  observer?.(context);
}

/** Records what the connection wrote for the request. */
export function noteWritten(context: RequestContext, version: number, correlationId: number, chunks: Buffer[]): void {
  context.version = version;
  context.correlationId = correlationId;
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  context.requestBytes = bytes;
}

/** `decode`, also noting the response frame's size (the reader spans the frame; 4 more for its size prefix). */
export function measuredDecode(context: RequestContext, decode: (r: Reader) => unknown): (r: Reader) => unknown {
  return (r) => {
    context.responseBytes = r.end + 4;
    return decode(r);
  };
}
