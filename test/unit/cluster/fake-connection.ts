/**
 * A scripted connection: each test answers requests with its own handler (real codecs both ways). It stays
 * beside test/fake-kafka because the cluster and coordinator tests script one answer at a time (errors,
 * moved coordinators, odd versions) rather than a cluster's state; test/fake-kafka's control() hooks could
 * take them over once it serves Metadata and the admin APIs.
 */
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import type { ApiDef } from '../../../protocol/schema.js';
import type { Connection } from '../../../src/network/connection.js';

export interface SeenCall {
  api: string;
  version: number;
  body: any;
}

export type Handler = (api: string, version: number, body: any, call: number) => any;

/**
 * A stand-in for a broker connection in logic tests. Every request body is encoded with the real codec at its
 * version (so a field the version lacks fails as it would on the wire), and every answer is encoded and decoded
 * with the real response codec, so defaults and version rules apply exactly as for a broker's bytes.
 */
export class FakeConnection {
  readonly calls: SeenCall[] = [];
  readonly address: string;

  constructor(
    readonly nodeId: number,
    private readonly versions: Record<string, number>,
    private readonly handler: Handler,
  ) {
    this.address = `fake-${nodeId}:9092`;
  }

  versionFor(api: ApiDef): number {
    const v = this.versions[api.name];
    if (v === undefined) throw new Error(`fake broker ${this.nodeId} does not speak ${api.name}`);
    return v;
  }

  async request(
    api: ApiDef,
    body: unknown,
    options: { version?: number; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    const version = options.version ?? this.versionFor(api);
    requestCodec(api, version).encode(new Writer(), body as never);
    this.calls.push({ api: api.name, version, body });
    const answer = await this.handler(api.name, version, body, this.calls.length);
    if (answer instanceof Error) throw answer;
    const w = new Writer();
    responseCodec(api, version).encode(w, answer);
    return responseCodec(api, version).decode(new Reader(w.toBuffer()));
  }

  /** Typed as the real thing for code under test. */
  get asConnection(): Connection {
    return this as unknown as Connection;
  }
}
