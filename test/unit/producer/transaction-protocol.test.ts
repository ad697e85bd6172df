import { describe, expect, it } from 'vitest';
import type { Coordinators } from '../../../src/coordinator/coordinators.js';
import type { Connection } from '../../../src/network/connection.js';
import type { ProducerBatch } from '../../../src/producer/batch.js';
import { IdempotenceState } from '../../../src/producer/idempotence.js';
import { resolveProducerOptions } from '../../../src/producer/options.js';
import { TransactionManager } from '../../../src/producer/transaction-manager.js';

/**
 * The transaction manager's choice of protocol, against a fake coordinator (logic only; the brokers' side runs
 * in test/integration/transactions/protocol-v2.test.ts): classic while `transaction.version` is below 2, and
 * the switch Java makes when the coordinator finalizes v2 between transactions (EndTxn in the classic version,
 * an InitProducerId epoch bump, then v2: no AddPartitionsToTxn, EndTxn v5 whose epoch the producer takes).
 */
interface Sent {
  api: string;
  version: number | undefined;
  body: Record<string, unknown>;
}

function fakeCoordinator() {
  const features = new Map<string, number>();
  const sent: Sent[] = [];
  let epoch = 0;
  const connection = {
    apiVersions: { finalizedFeatures: features },
    versionFor: (api: { name: string }) => ({ EndTxn: 5, AddPartitionsToTxn: 5, InitProducerId: 5 })[api.name] ?? 0,
    request: async (api: { name: string }, body: Record<string, unknown>, options: { version?: number } = {}) => {
      sent.push({ api: api.name, version: options.version, body });
      switch (api.name) {
        case 'InitProducerId':
          if (body.producerEpoch !== -1) epoch++;
          return { errorCode: 0, producerId: 42n, producerEpoch: epoch };
        case 'AddPartitionsToTxn': {
          const topics = body.v3AndBelowTopics as { name: string; partitions: number[] }[];
          return {
            resultsByTopicV3AndBelow: topics.map((t) => ({
              name: t.name,
              resultsByPartition: t.partitions.map((p) => ({ partitionIndex: p, partitionErrorCode: 0 })),
            })),
          };
        }
        case 'EndTxn':
          if ((options.version ?? 0) < 5) return { errorCode: 0, producerId: -1n, producerEpoch: -1 };
          epoch++;
          return { errorCode: 0, producerId: 42n, producerEpoch: epoch };
        default:
          throw new Error(`unexpected ${api.name}`);
      }
    },
  } as unknown as Connection;
  const coordinators = {
    call: (_kind: string, _key: string, _deadline: unknown, work: (c: Connection) => Promise<unknown>) =>
      work(connection),
  } as unknown as Coordinators;
  return { features, sent, coordinators };
}

const batch = (partition: number) => ({ topic: 'out', partition }) as unknown as ProducerBatch;

describe('transaction protocol choice', () => {
  it('classic until the coordinator finalizes transaction.version 2, then v2 after an epoch bump', async () => {
    const coordinator = fakeCoordinator();
    const idempotence = new IdempotenceState();
    const host = { flush: async () => {}, abortUnsent: async () => {}, wakeSender: () => {} };
    const options = resolveProducerOptions({ transactionalId: 'app' });
    const manager = new TransactionManager('app', options, coordinator.coordinators, idempotence, host);
    const apis = () => coordinator.sent.map((s) => `${s.api}${s.version === undefined ? '' : ` v${s.version}`}`);

    await manager.init();
    manager.begin();
    const classic = batch(0);
    expect(manager.admit(classic)).toBe(false); // waits for AddPartitionsToTxn
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(manager.admit(classic)).toBe(true);
    expect(classic).toMatchObject({ transactional: true, transactionV2: false });

    coordinator.features.set('transaction.version', 2);
    await manager.commit();
    expect(apis()).toEqual(['InitProducerId', 'AddPartitionsToTxn v3', 'EndTxn v4', 'InitProducerId']);
    expect(idempotence.epoch).toBe(1);

    coordinator.sent.length = 0;
    manager.begin();
    const v2 = batch(1);
    manager.maybeAdd('out', 1);
    expect(manager.admit(v2)).toBe(true);
    expect(v2).toMatchObject({ transactional: true, transactionV2: true });
    await manager.commit();
    expect(apis()).toEqual(['EndTxn v5']);
    expect(idempotence.epoch).toBe(2);

    // An aborted v2 transaction: EndTxn v5 bumps the epoch too; nothing else is sent.
    coordinator.sent.length = 0;
    manager.begin();
    expect(manager.admit(batch(2))).toBe(true);
    await manager.abort();
    expect(apis()).toEqual(['EndTxn v5']);
    expect(idempotence.epoch).toBe(3);
    expect(manager.state).toBe('ready');
  });

  it('a coordinator that finalizes v2 from the start: no AddPartitionsToTxn at all', async () => {
    const coordinator = fakeCoordinator();
    coordinator.features.set('transaction.version', 2);
    const idempotence = new IdempotenceState();
    const host = { flush: async () => {}, abortUnsent: async () => {}, wakeSender: () => {} };
    const manager = new TransactionManager(
      'app',
      resolveProducerOptions({ transactionalId: 'app' }),
      coordinator.coordinators,
      idempotence,
      host,
    );
    await manager.init();
    manager.begin();
    // A transaction with no record and no offsets sends no EndTxn (as Java).
    await manager.commit();
    manager.begin();
    expect(manager.admit(batch(0))).toBe(true);
    await manager.commit();
    expect(coordinator.sent.map((s) => s.api)).toEqual(['InitProducerId', 'EndTxn']);
    expect(idempotence.epoch).toBe(1);
  });
});
