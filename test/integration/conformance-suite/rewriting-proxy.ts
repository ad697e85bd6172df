/**
 * A TCP proxy between the conformance suite and a real single-node broker that decodes every response it can
 * (with tidemark's protocol definitions), lets a test rewrite it, and re-encodes it: the mutation test of the
 * suite. It always points Metadata and FindCoordinator answers at itself, so every connection the suite opens
 * goes through it. Frames it cannot decode (deliberately malformed requests, unknown versions) pass unchanged.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { messageCodec, requestCodec, responseCodec } from '../../../protocol/codec.js';
import { RequestHeader, requestHeaderVersion, responseHeaderVersion } from '../../../protocol/headers.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import type { ApiDef } from '../../../protocol/schema.js';

/** A decoded message: a rewrite edits whatever shape the API's response has. */
export type Decoded = any;

/** Changes a decoded response in place; `request` is the decoded request it answers. */
export type Rewrite = (api: ApiDef, version: number, request: Decoded, response: Decoded) => void;

const MAX_FRAME = 100 * 1024 * 1024;

interface Pending {
  api: ApiDef;
  version: number;
  request: Decoded;
}

/** Splits a byte stream into size-prefixed frames; stops (returns undefined) on an impossible size. */
class Frames {
  private buffered = Buffer.alloc(0);
  broken = false;

  push(chunk: Buffer): Buffer[] {
    if (this.broken) return [];
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const out: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const size = this.buffered.readInt32BE(0);
      if (size < 0 || size > MAX_FRAME) {
        this.broken = true;
        return out;
      }
      if (this.buffered.length < 4 + size) break;
      out.push(this.buffered.subarray(4, 4 + size));
      this.buffered = this.buffered.subarray(4 + size);
    }
    return out;
  }
}

export class RewritingProxy {
  /** Rewrites applied to every decoded response, in order. */
  rewrites: Rewrite[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private responsesLeft = Number.POSITIVE_INFINITY;
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return `127.0.0.1:${this.port}`;
  }

  /** After `n` more responses, drops every connection and refuses new ones: a broker going away. */
  dieAfter(n: number): void {
    this.responsesLeft = n;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private die(): void {
    this.server.close();
    for (const s of this.sockets) s.destroy();
  }

  private accept(client: Socket): void {
    const broker = tcpConnect(this.upstream);
    this.sockets.add(client);
    this.sockets.add(broker);
    const pending = new Map<number, Pending>();
    const requests = new Frames();
    const responses = new Frames();
    const end = () => {
      client.destroy();
      broker.destroy();
    };
    client.on('error', end).on('close', end);
    broker.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      for (const frame of requests.push(chunk)) this.noteRequest(frame, pending);
      broker.write(chunk);
    });
    broker.on('data', (chunk: Buffer) => {
      if (responses.broken) return void client.write(chunk);
      for (const frame of responses.push(chunk)) {
        const out = this.rewrite(frame, pending);
        const prefix = Buffer.alloc(4);
        prefix.writeInt32BE(out.length, 0);
        client.write(Buffer.concat([prefix, out]));
        if (--this.responsesLeft <= 0) return this.die();
      }
    });
  }

  private noteRequest(frame: Buffer, pending: Map<number, Pending>): void {
    if (frame.length < 8) return;
    const api = API_DEFINITIONS.find((a) => a.key === frame.readInt16BE(0));
    const version = frame.readInt16BE(2);
    if (api === undefined) return;
    try {
      const r = new Reader(frame);
      const header = messageCodec(RequestHeader, requestHeaderVersion(api, version)).decode(r);
      const request = requestCodec(api, version).decode(r);
      pending.set(header.correlationId, { api, version, request });
    } catch {
      // Not decodable at this version (a deliberately malformed request): its answer passes unchanged.
    }
  }

  private rewrite(frame: Buffer, pending: Map<number, Pending>): Buffer {
    const correlationId = frame.readInt32BE(0);
    const p = pending.get(correlationId);
    pending.delete(correlationId);
    if (p === undefined) return frame;
    try {
      const r = new Reader(frame, 4);
      const headerVersion = responseHeaderVersion(p.api, p.version);
      if (headerVersion >= 1) r.taggedFields();
      const codec = responseCodec(p.api, p.version);
      const response = codec.decode(r) as Decoded;
      if (r.remaining !== 0) return frame;
      this.pointAtProxy(p.api, response);
      for (const rewrite of this.rewrites) rewrite(p.api, p.version, p.request, response);
      const w = new Writer();
      w.int32(correlationId);
      if (headerVersion >= 1) w.uvarint(0);
      codec.encode(w, response);
      return w.toBuffer();
    } catch {
      return frame;
    }
  }

  private pointAtProxy(api: ApiDef, response: Decoded): void {
    if (api.name === 'Metadata') {
      for (const b of response.brokers) Object.assign(b, { host: '127.0.0.1', port: this.port });
    } else if (api.name === 'FindCoordinator') {
      if (response.nodeId >= 0 && response.host !== '') Object.assign(response, { host: '127.0.0.1', port: this.port });
      for (const c of response.coordinators ?? [])
        if (c.nodeId >= 0) Object.assign(c, { host: '127.0.0.1', port: this.port });
    }
  }
}
