/**
 * Tiny raw-bytes Kafka requests over node:net, so the harness does not depend on the client under test.
 * Only non-flexible request versions are used, so every response has the v0 header (correlation id only).
 */
import * as net from 'node:net';

const CLIENT_ID = 'tidemark-harness';

export const API_KEY = { Fetch: 1, ListOffsets: 2, Metadata: 3, OffsetCommit: 8, ApiVersions: 18 } as const;

export interface VersionRange {
  min: number;
  max: number;
}

export interface ApiVersionsResult {
  errorCode: number;
  apis: Map<number, VersionRange>;
}

export interface MetadataBroker {
  nodeId: number;
  host: string;
  port: number;
}

export interface MetadataResult {
  brokers: MetadataBroker[];
  clusterId: string | null;
  controllerId: number;
}

let nextCorrelationId = 1;

/** Sends one request and resolves with the response body (after the correlation id). */
export function rawRequest(
  host: string,
  port: number,
  apiKey: number,
  apiVersion: number,
  body: Buffer,
  timeoutMs = 2_000,
): Promise<Buffer> {
  const correlationId = nextCorrelationId++;
  const clientId = Buffer.from(CLIENT_ID);
  const header = Buffer.alloc(10 + clientId.length);
  header.writeInt16BE(apiKey, 0);
  header.writeInt16BE(apiVersion, 2);
  header.writeInt32BE(correlationId, 4);
  header.writeInt16BE(clientId.length, 8);
  clientId.copy(header, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(header.length + body.length);

  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let received = Buffer.alloc(0);
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no response from ${host}:${port} within ${timeoutMs} ms`)));
    socket.on('error', fail);
    socket.on('connect', () => socket.write(Buffer.concat([size, header, body])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4) return;
      const length = received.readInt32BE(0);
      if (length < 4 || length > 16 * 1024 * 1024) return fail(new Error(`implausible response size ${length}`));
      if (received.length < 4 + length) return;
      socket.end();
      const gotId = received.readInt32BE(4);
      if (gotId !== correlationId) return fail(new Error(`correlation id ${gotId}, expected ${correlationId}`));
      resolve(received.subarray(8, 4 + length));
    });
    socket.on('close', () => reject(new Error(`connection to ${host}:${port} closed before a full response`)));
  });
}

/** ApiVersions v0: every broker generation answers it, and answers in v0 form even when it refuses a version. */
export async function probeApiVersions(host: string, port: number, timeoutMs?: number): Promise<ApiVersionsResult> {
  const body = await rawRequest(host, port, API_KEY.ApiVersions, 0, Buffer.alloc(0), timeoutMs);
  const errorCode = body.readInt16BE(0);
  const count = body.readInt32BE(2);
  const apis = new Map<number, VersionRange>();
  for (let i = 0, at = 6; i < count; i++, at += 6) {
    apis.set(body.readInt16BE(at), { min: body.readInt16BE(at + 2), max: body.readInt16BE(at + 4) });
  }
  return { errorCode, apis };
}

/** Metadata v4 (the oldest version Kafka 4.x still serves) for no topics: just the broker list. */
export async function probeMetadata(host: string, port: number, timeoutMs?: number): Promise<MetadataResult> {
  const request = Buffer.alloc(5);
  request.writeInt32BE(0, 0); // empty topic array = no topics (null would mean all)
  request.writeInt8(0, 4); // allow_auto_topic_creation
  const body = await rawRequest(host, port, API_KEY.Metadata, 4, request, timeoutMs);
  let at = 4; // throttle_time_ms
  const readString = (): string | null => {
    const len = body.readInt16BE(at);
    at += 2;
    if (len < 0) return null;
    const s = body.toString('utf8', at, at + len);
    at += len;
    return s;
  };
  const brokers: MetadataBroker[] = [];
  const count = body.readInt32BE(at);
  at += 4;
  for (let i = 0; i < count; i++) {
    const nodeId = body.readInt32BE(at);
    at += 4;
    const host = readString() ?? '';
    const port = body.readInt32BE(at);
    at += 4;
    readString(); // rack
    brokers.push({ nodeId, host, port });
  }
  const clusterId = readString();
  const controllerId = body.readInt32BE(at);
  return { brokers, clusterId, controllerId };
}

/**
 * Why a broker is not ready yet, or null once it is: it answers ApiVersions, lists itself in Metadata
 * (registered with the controller and unfenced), and its SASL listener accepts connections.
 */
export async function notReadyReason(
  host: string,
  port: number,
  saslPort: number,
  nodeId: number,
): Promise<string | null> {
  try {
    const versions = await probeApiVersions(host, port, 1_000);
    if (versions.errorCode !== 0) return `ApiVersions error code ${versions.errorCode}`;
    const metadata = await probeMetadata(host, port, 1_000);
    if (!metadata.brokers.some((b) => b.nodeId === nodeId && b.port === port)) return 'broker not yet in Metadata';
    if (!(await isPortOpen(host, saslPort))) return 'SASL listener not accepting';
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** True when something accepts TCP connections on host:port. */
export function isPortOpen(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

export function parseHostPort(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':');
  const port = Number(address.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`invalid address "${address}": expected host:port`);
  }
  return { host: address.slice(0, i).replace(/^\[(.*)\]$/, '$1'), port };
}
