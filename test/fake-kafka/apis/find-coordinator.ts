/**
 * FindCoordinator (v0-v3 one key, v4+ batched keys): `kafka.coordinatorOf(key, keyType)` names the broker that
 * coordinates each group (key type 0) and transactional id (key type 1); by default the first broker.
 */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerFindCoordinator(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  const found = (key: string) => {
    const nodeId = kafka.coordinatorOf(key, body.keyType ?? 0);
    return { nodeId, host: `fake-${nodeId}`, port: 9092, errorCode: 0, errorMessage: null };
  };
  if (version < 4) return { throttleTimeMs: 0, ...found(body.key) };
  return { throttleTimeMs: 0, coordinators: body.coordinatorKeys.map((key: string) => ({ key, ...found(key) })) };
}
