/** InitProducerId: hands out a new producer id at epoch 0 (transactional ids and epoch bumps are not modelled). */
import type { FakeKafka } from '../cluster.js';

export function answerInitProducerId(kafka: FakeKafka) {
  return { throttleTimeMs: 0, errorCode: 0, producerId: kafka.nextProducerId++, producerEpoch: 0 };
}

/** A control answer that refuses InitProducerId with `errorCode`: `kafka.control('InitProducerId', () => ...)`. */
export function initProducerIdRefused(errorCode: number) {
  return { response: { throttleTimeMs: 0, errorCode, producerId: -1n, producerEpoch: -1 } };
}
