/**
 * A TCP proxy in front of a broker that can lose Produce responses: the broker has appended the batch, but the
 * connection dies before the client hears so. That is the failure idempotence exists for, made deterministic.
 */
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { SocketFactory } from '../../../src/network/socket.js';
import { tcpSocketFactory } from '../../../src/network/socket.js';

const PRODUCE_API_KEY = 0;

export class FaultProxy {
  /** How many more Produce responses to lose (each by killing its connection). */
  loseProduceResponses = 0;
  /** Produce responses lost so far. */
  lost = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly brokerHost: string,
    private readonly brokerPort: number,
  ) {}

  static async start(broker: string): Promise<FaultProxy> {
    const i = broker.lastIndexOf(':');
    const proxy = new FaultProxy(broker.slice(0, i), Number(broker.slice(i + 1)));
    proxy.server = createServer((client) => proxy.accept(client));
    await new Promise<void>((resolve) => proxy.server!.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server!.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }

  /** Every connection goes through the proxy, whichever broker address metadata names (one broker here). */
  readonly socketFactory: SocketFactory = ({ timeoutMs }) =>
    tcpSocketFactory({ host: '127.0.0.1', port: this.port, timeoutMs });

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = netConnect({ host: this.brokerHost, port: this.brokerPort });
    this.sockets.add(client).add(upstream);
    const produceIds = new Set<number>();
    const kill = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', kill).on('error', kill);
    upstream.on('close', kill).on('error', kill);
    // Requests: size, api key, api version, correlation id. Remember which correlation ids are Produce.
    client.on(
      'data',
      frames((frame) => {
        if (frame.readInt16BE(0) === PRODUCE_API_KEY) produceIds.add(frame.readInt32BE(4));
        upstream.write(withSize(frame));
      }),
    );
    // Responses: size, correlation id. Lose a Produce response by killing the connection instead.
    upstream.on(
      'data',
      frames((frame) => {
        const id = frame.readInt32BE(0);
        if (produceIds.delete(id) && this.loseProduceResponses > 0) {
          this.loseProduceResponses--;
          this.lost++;
          kill();
          return;
        }
        client.write(withSize(frame));
      }),
    );
  }
}

function withSize(frame: Buffer): Buffer {
  const size = Buffer.allocUnsafe(4);
  size.writeInt32BE(frame.length);
  return Buffer.concat([size, frame]);
}

/** Splits a byte stream into size-prefixed frames. */
function frames(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (pending.length < 4 + size) break;
      onFrame(pending.subarray(4, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}
