import type { ProduceConnection, ProducerCluster } from './cluster-view.js';

/** Produce v6+ leaves quota throttling to the client (KIP-219): it must not send to the broker until it ends. */
const FIRST_CLIENT_THROTTLED_VERSION = 6;

interface Link {
  connection: ProduceConnection | undefined;
  connecting: boolean;
  /** Produce requests sent and not yet answered. */
  inFlight: number;
  /** No request before this (epoch ms): the broker asked us to wait out a quota. */
  throttledUntil: number;
}

/**
 * The sender's state per broker: the connection Produce requests go on, how many are in flight (the
 * `maxInFlightRequestsPerConnection` limit), and quota throttling. Opening a connection happens in the
 * background; `onChange` runs when one opens or fails so the sender can try again.
 */
export class BrokerLinks {
  private readonly links = new Map<number, Link>();

  constructor(
    private readonly cluster: ProducerCluster,
    private readonly maxInFlight: number,
    private readonly on: { opened: () => void; failed: (err: unknown) => void },
  ) {}

  /**
   * The connection to send on now, or undefined when there is none yet (it is being opened), the in-flight
   * limit is reached, or the broker throttles us (then `throttledUntil` says until when).
   */
  sendable(node: number, now: number): ProduceConnection | undefined {
    const link = this.link(node);
    if (link.inFlight >= this.maxInFlight || link.throttledUntil > now) return undefined;
    if (link.connection !== undefined && !link.connection.isClosed) return link.connection;
    link.connection = undefined;
    if (!link.connecting) this.open(node, link);
    return undefined;
  }

  throttledUntil(node: number): number {
    return this.links.get(node)?.throttledUntil ?? 0;
  }

  /** A request went out on `node`'s connection. */
  sent(node: number): void {
    this.link(node).inFlight++;
  }

  /** A request on `node` settled; `throttleTimeMs` from its response, when it had one. */
  settled(node: number, version: number, throttleTimeMs = 0): void {
    const link = this.link(node);
    link.inFlight--;
    if (throttleTimeMs > 0 && version >= FIRST_CLIENT_THROTTLED_VERSION) {
      link.throttledUntil = Math.max(link.throttledUntil, Date.now() + throttleTimeMs);
    }
  }

  get totalInFlight(): number {
    let n = 0;
    for (const link of this.links.values()) n += link.inFlight;
    return n;
  }

  private open(node: number, link: Link): void {
    link.connecting = true;
    this.cluster.connectionTo(node).then(
      (connection) => {
        link.connecting = false;
        link.connection = connection;
        this.on.opened();
      },
      (err: unknown) => {
        link.connecting = false;
        this.on.failed(err);
      },
    );
  }

  private link(node: number): Link {
    let link = this.links.get(node);
    if (link === undefined) {
      link = { connection: undefined, connecting: false, inFlight: 0, throttledUntil: 0 };
      this.links.set(node, link);
    }
    return link;
  }
}
