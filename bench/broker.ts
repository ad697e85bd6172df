import { startBroker } from '../test/harness/broker.js';
import { DEFAULT_KAFKA_VERSION } from '../test/harness/versions.js';

/** A broker for one benchmark run: the user's (KAFKA_BOOTSTRAP) or an embedded one from the harness. */
export interface BenchBroker {
  bootstrap: string;
  kafkaVersion: string;
  /** The Kafka release whose Java tools (ConsumerPerformance) run against it. */
  toolsVersion: string;
  stop(): Promise<void>;
}

export async function benchBroker(log: (line: string) => void): Promise<BenchBroker> {
  const existing = process.env.KAFKA_BOOTSTRAP;
  if (existing !== undefined && existing !== '') {
    log(`using the broker at ${existing} (KAFKA_BOOTSTRAP)`);
    return { bootstrap: existing, kafkaVersion: 'external', toolsVersion: DEFAULT_KAFKA_VERSION, stop: async () => {} };
  }
  log('starting the embedded Kafka broker (jars from Maven Central; the first run downloads them)…');
  const broker = await startBroker({ name: `bench-${process.pid}` });
  log(`broker Kafka ${broker.kafkaVersion} ready at ${broker.bootstrap}`);
  return {
    bootstrap: broker.bootstrap,
    kafkaVersion: broker.kafkaVersion,
    toolsVersion: broker.kafkaVersion,
    stop: () => broker.stop(),
  };
}
