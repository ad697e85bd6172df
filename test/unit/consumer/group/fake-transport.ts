/**
 * A scripted group coordinator behind the membership's GroupTransport. It stays beside test/fake-kafka
 * because the membership tests script the classic protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) and
 * KIP-848 answers exchange by exchange, which the fake cluster does not model yet (see its README).
 */
import { Reader } from '../../../../codecs/reader.js';
import { Writer } from '../../../../codecs/writer.js';
import { requestCodec, responseCodec } from '../../../../protocol/codec.js';
import type { ApiDef } from '../../../../protocol/schema.js';
import type { ClusterMetadata, MetadataQuery } from '../../../../src/cluster/metadata.js';
import type { GroupTransport, LinkRequestOptions } from '../../../../src/consumer/group/coordinator-link.js';
import type { GroupMembershipOptions } from '../../../../src/consumer/group/membership.js';
import { type ResolvedOptions, resolveOptions } from '../../../../src/consumer/group/options.js';
import { isCoordinatorMovedCode } from '../../../../src/coordinator/find-coordinator.js';

export interface Call {
  api: string;
  version: number;
  body: any;
  parked: boolean;
}

export type Handler = (api: string, body: any, call: Call) => any;

export const VERSIONS: Record<string, number> = {
  JoinGroup: 9,
  SyncGroup: 5,
  Heartbeat: 4,
  LeaveGroup: 5,
  ConsumerGroupHeartbeat: 1,
};

/**
 * A group coordinator stand-in for membership logic tests: every request is encoded with the real codec at its
 * version (a field the version lacks fails as on the wire), every answer goes through the real response codec,
 * and a coordinator-moved code counts as a rediscovery, as the real link does.
 */
export class FakeTransport implements GroupTransport {
  readonly calls: Call[] = [];
  moved = 0;
  closed = false;

  constructor(
    public handler: Handler,
    private readonly topics: Array<{ name: string; partitions: number; topicId?: string }> = [],
    private readonly versions: Record<string, number> = VERSIONS,
  ) {}

  async request(api: ApiDef, body: (version: number) => any, options: LinkRequestOptions): Promise<any> {
    const version = this.versions[api.name];
    if (version === undefined) throw new Error(`fake coordinator does not speak ${api.name}`);
    const b = body(version);
    requestCodec(api, version).encode(new Writer(), b);
    const call = { api: api.name, version, body: b, parked: options.parked === true };
    this.calls.push(call);
    const answer = await this.handler(api.name, b, call);
    if (answer instanceof Error) throw answer;
    const w = new Writer();
    responseCodec(api, version).encode(w, answer);
    const decoded = responseCodec(api, version).decode(new Reader(w.toBuffer())) as { errorCode?: number };
    if (typeof decoded.errorCode === 'number' && isCoordinatorMovedCode(decoded.errorCode)) this.moved++;
    return decoded;
  }

  coordinatorMoved(): void {
    this.moved++;
  }

  async metadata(query: MetadataQuery = {}): Promise<ClusterMetadata> {
    const wanted = query.topics ?? null;
    const topics = new Map();
    for (const t of this.topics) {
      if (wanted !== null && !wanted.includes(t.name)) continue;
      if (query.topicIds !== undefined && !query.topicIds.includes(t.topicId ?? '')) continue;
      topics.set(t.name, {
        name: t.name,
        topicId: t.topicId,
        isInternal: false,
        error: undefined,
        partitions: Array.from({ length: t.partitions }, (_, partition) => ({
          partition,
          leader: 1,
          leaderEpoch: 0,
          replicas: [1],
          isr: [1],
          offlineReplicas: [],
          error: undefined,
        })),
      });
    }
    return {
      clusterId: 'c',
      controllerId: 1,
      brokers: new Map([[1, { nodeId: 1, host: 'h', port: 1, rack: null }]]),
      topics,
      version: 12,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  of(api: string): Call[] {
    return this.calls.filter((c) => c.api === api);
  }
}

/** Options for tests: fast timers. */
export function testOptions(extra: Partial<GroupMembershipOptions> = {}): ResolvedOptions {
  return resolveOptions({
    groupId: 'g',
    sessionTimeoutMs: 1_000,
    heartbeatIntervalMs: 20,
    maxPollIntervalMs: 60_000,
    retryBackoff: { initialMs: 5, maxMs: 20 },
    requestTimeoutMs: 1_000,
    ...extra,
  });
}

export async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
