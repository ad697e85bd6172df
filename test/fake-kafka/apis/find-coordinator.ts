/** FindCoordinator (v4+, batched keys): the first broker coordinates every group and transactional id. */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerFindCoordinator(kafka: FakeKafka, { body }: FakeRequest) {
  const nodeId = kafka.nodes[0];
  return {
    throttleTimeMs: 0,
    coordinators: body.coordinatorKeys.map((key: string) => ({
      key,
      nodeId,
      host: `fake-${nodeId}`,
      port: 9092,
      errorCode: 0,
      errorMessage: null,
    })),
  };
}
