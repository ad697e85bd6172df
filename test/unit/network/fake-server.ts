/**
 * A TCP server on 127.0.0.1 speaking Kafka's framing, for the network layer's unit tests (ApiVersions
 * negotiation, framing, timeouts, closes). It stays beside test/fake-kafka because it models one connection's
 * byte stream, not a Kafka cluster: the tests here need the socket the fake cluster deliberately leaves out.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { Writer } from '../../../codecs/writer.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { responseCodec } from '../../../protocol/codec.js';
import type { ResponseInput } from '../../../protocol/schema.js';
import { clientVersions } from '../../../src/network/api-versions.js';
import { FrameAssembler } from '../../../src/network/frame-assembler.js';
import { ALWAYS_SERVED } from '../../../src/network/version-recheck.js';

/** A request as the fake server saw it; `rest` is everything after the client id (tags and body). */
export interface SeenRequest {
  apiKey: number;
  version: number;
  correlationId: number;
  clientId: string | null;
  rest: Buffer;
  socket: Socket;
}

/**
 * Every API a Kafka broker always serves, at the versions tidemark speaks: a table the handshake accepts with
 * one answer (a table without one of them is asked for twice, see src/network/version-recheck.ts).
 */
export const SERVED_API_KEYS: readonly { apiKey: number; minVersion: number; maxVersion: number }[] = ALWAYS_SERVED.map(
  (api) => {
    const ours = clientVersions(api);
    return { apiKey: api.key, minVersion: ours.min, maxVersion: ours.max };
  },
);

/**
 * A loopback TCP server that frames requests and lets each test decide what bytes to send back. Only for
 * transport tests: anything about Kafka's behaviour is tested against a real broker.
 */
export class FakeServer {
  readonly requests: SeenRequest[] = [];
  readonly sockets: Socket[] = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly handler: (req: SeenRequest, server: FakeServer) => void,
  ) {}

  static async start(handler: (req: SeenRequest, server: FakeServer) => void = () => {}): Promise<FakeServer> {
    let fake: FakeServer | undefined;
    const server = createServer((socket) => {
      fake!.sockets.push(socket);
      socket.on('error', () => {});
      const assembler = new FrameAssembler(1 << 20, (frame) => fake!.onRequest(frame, socket));
      socket.on('data', (chunk) => assembler.push(chunk));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    fake = new FakeServer(server, address.port, handler);
    return fake;
  }

  /** Resolves once `count` requests have arrived in total. */
  async received(count: number): Promise<SeenRequest[]> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.requests;
  }

  /** Writes a response frame: size, correlation id, an empty tag section for header v1, then the body. */
  static frame(correlationId: number, body: Buffer, headerVersion = 0): Buffer {
    const header = Buffer.alloc(headerVersion >= 1 ? 5 : 4);
    header.writeInt32BE(correlationId, 0);
    const size = Buffer.alloc(4);
    size.writeInt32BE(header.length + body.length, 0);
    return Buffer.concat([size, header, body]);
  }

  /**
   * Answers an ApiVersions request as a broker would (SERVED_API_KEYS, so the handshake needs one answer) and
   * returns true; false for any other request, which the caller answers.
   */
  static answerHandshake(req: SeenRequest): boolean {
    if (req.apiKey !== ApiVersions.key) return false;
    const body = FakeServer.apiVersionsBody(req.version, { apiKeys: [...SERVED_API_KEYS] });
    req.socket.write(FakeServer.frame(req.correlationId, body));
    return true;
  }

  static apiVersionsBody(version: number, value: ResponseInput<typeof ApiVersions>): Buffer {
    const w = new Writer();
    responseCodec(ApiVersions, version).encode(w, value);
    return w.toBuffer();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(frame: Buffer, socket: Socket): void {
    const clientIdLength = frame.readInt16BE(8);
    const clientIdEnd = 10 + Math.max(0, clientIdLength);
    const req: SeenRequest = {
      apiKey: frame.readInt16BE(0),
      version: frame.readInt16BE(2),
      correlationId: frame.readInt32BE(4),
      clientId: clientIdLength < 0 ? null : frame.toString('utf8', 10, clientIdEnd),
      rest: Buffer.from(frame.subarray(clientIdEnd)),
      socket,
    };
    this.requests.push(req);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    this.handler(req, this);
  }
}

/** A loopback port nothing listens on: connecting to it is refused at once. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
