/**
 * A cached leader id that names no broker of the cluster (issue 22's corruption soak: one flipped bit in a
 * Metadata answer's leader id). Connecting to that leader fails with BrokerNotFoundError even after the broker
 * list is refreshed; the caller reports it with noteError, and the next look at the topic must ask the broker
 * again. It used to be served from the cache until the cache's max age (5 minutes): the soak's producer held
 * every record for the partition that long, and the send after healing timed out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Writer } from '../../../codecs/writer.js';
import { responseCodec } from '../../../protocol/codec.js';
import { responseHeaderVersion } from '../../../protocol/headers.js';
import { Metadata } from '../../../protocol/index.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { BrokerNotFoundError } from '../../../src/cluster/errors.js';
import { FakeServer, type SeenRequest } from '../network/fake-server.js';

const NODE = 1;
/** Node 1 with its third bit flipped: no broker of the cluster. */
const GARBLED_LEADER = NODE ^ 4;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

/** A one-broker cluster whose first Metadata answer names `GARBLED_LEADER` as the leader of t-0. */
async function clusterWithGarbledFirstAnswer(): Promise<{ cluster: Cluster; metadataAnswers: () => number }> {
  let metadataAnswers = 0;
  const server = await FakeServer.start((req: SeenRequest) => {
    if (FakeServer.answerHandshake(req)) return;
    if (req.apiKey !== Metadata.key) return;
    const leaderId = metadataAnswers++ === 0 ? GARBLED_LEADER : NODE;
    const w = new Writer();
    responseCodec(Metadata, req.version).encode(w, {
      throttleTimeMs: 0,
      brokers: [{ nodeId: NODE, host: '127.0.0.1', port: server.port, rack: null }],
      clusterId: 'c',
      controllerId: NODE,
      topics: [
        {
          errorCode: 0,
          name: 't',
          topicId: 'AAAAAAAAAAAAAAAAAAAAAQ',
          isInternal: false,
          partitions: [
            {
              errorCode: 0,
              partitionIndex: 0,
              leaderId,
              leaderEpoch: 0,
              replicaNodes: [NODE],
              isrNodes: [NODE],
              offlineReplicas: [],
            },
          ],
          topicAuthorizedOperations: -2147483648,
        },
      ],
      clusterAuthorizedOperations: -2147483648,
    } as never);
    const headerVersion = responseHeaderVersion(Metadata, req.version);
    req.socket.write(FakeServer.frame(req.correlationId, w.toBuffer(), headerVersion));
  });
  cleanup.push(() => server.close());
  const cluster = new Cluster({ bootstrap: [`127.0.0.1:${server.port}`], connectTimeoutMs: 1_000 });
  cleanup.unshift(() => cluster.close());
  return { cluster, metadataAnswers: () => metadataAnswers };
}

describe('a cached leader that names no broker', () => {
  it('is refetched once a caller reports BrokerNotFoundError, not served until the max age', async () => {
    const { cluster, metadataAnswers } = await clusterWithGarbledFirstAnswer();
    const garbled = await cluster.metadataCache.topic('t');
    expect(garbled.partitions[0].leader).toBe(GARBLED_LEADER);

    const err = await cluster.connectionTo(GARBLED_LEADER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerNotFoundError);
    // The producer's sender reports a leader it cannot reach without a topic (every leader is suspect).
    cluster.noteError(err);

    const answersBefore = metadataAnswers();
    const fresh = await cluster.metadataCache.topic('t');
    expect(metadataAnswers()).toBe(answersBefore + 1);
    expect(fresh.partitions[0].leader).toBe(NODE);
  });
});
