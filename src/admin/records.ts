import { TidemarkError } from '../../codecs/errors.js';
import { DeleteRecords } from '../../protocol/apis/delete-records.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { groupBy } from '../cluster/group-by.js';
import { type LeaderAnswer, sendToLeaders } from '../cluster/leader-requests.js';
import { partitionKey, throwPartitionFailures } from '../cluster/partition-errors.js';
import { type AdminCallOptions, type AdminContext, deadlineOf } from './admin-context.js';

/**
 * Deleting records: DeleteRecords moves a partition's log start offset forward, so the records before it are
 * gone for every reader (a consumer positioned before it is out of range). Sent to each partition's leader.
 */

export interface RecordsToDelete {
  topic: string;
  partition: number;
  /** Records before this offset are deleted; `'high-watermark'` deletes every record written so far. */
  before: bigint | 'high-watermark';
}

export interface DeletedRecords {
  topic: string;
  partition: number;
  /** The partition's log start offset (low watermark) after the deletion. */
  lowWatermark: bigint;
}

export interface DeleteRecordsOptions extends AdminCallOptions {
  /** How long the leader may wait for its followers to move their log start too. Default: the request timeout. */
  brokerTimeoutMs?: number;
}

/**
 * Deletes the records before the given offsets. An offset beyond the high watermark is refused by the broker
 * (OFFSET_OUT_OF_RANGE); partitions that fail throw (PartitionErrors carries the ones that succeeded).
 */
export async function deleteRecords(
  ctx: AdminContext,
  targets: readonly RecordsToDelete[],
  options: DeleteRecordsOptions = {},
): Promise<DeletedRecords[]> {
  check(targets);
  const deadline = deadlineOf(ctx, 'DeleteRecords', options);
  const brokerTimeoutMs = options.brokerTimeoutMs ?? ctx.requestTimeoutMs;
  const { results, failures } = await sendToLeaders(ctx.cluster, targets, deadline, async (connection, items) => {
    const version = options.version ?? connection.versionFor(DeleteRecords);
    const byTopic = groupBy(items, (i) => i.query.topic);
    const response = await connection.request(
      DeleteRecords,
      {
        topics: [...byTopic].map(([name, list]) => ({
          name,
          partitions: list.map(({ query }) => ({
            partitionIndex: query.partition,
            offset: query.before === 'high-watermark' ? -1n : query.before,
          })),
        })),
        timeoutMs: brokerTimeoutMs,
      },
      // The leader may wait brokerTimeoutMs for its followers before it answers.
      { ...deadline.requestOptions(ctx.requestTimeoutMs + brokerTimeoutMs), version },
    );
    const asked = new Map(items.map((i) => [partitionKey(i.query.topic, i.query.partition), i.query]));
    const answers: LeaderAnswer<RecordsToDelete, bigint>[] = [];
    for (const t of response.topics) {
      for (const p of t.partitions) {
        const query = asked.get(partitionKey(t.name, p.partitionIndex));
        if (query === undefined) continue;
        if (p.errorCode === 0) answers.push({ query, result: p.lowWatermark });
        else {
          const context = { api: 'DeleteRecords', version, topic: t.name, partition: p.partitionIndex };
          answers.push({ query, error: kafkaError(p.errorCode, { context }) });
        }
      }
    }
    return answers;
  });
  const deleted = targets.flatMap((t) => {
    const lowWatermark = results.get(t);
    return lowWatermark === undefined ? [] : [{ topic: t.topic, partition: t.partition, lowWatermark }];
  });
  throwPartitionFailures('DeleteRecords', failures, deleted);
  return deleted;
}

function check(targets: readonly RecordsToDelete[]): void {
  if (targets.length === 0) throw new TidemarkError('no partitions given');
  const seen = new Set<string>();
  for (const t of targets) {
    const key = partitionKey(t.topic, t.partition);
    if (typeof t.topic !== 'string' || t.topic === '' || !Number.isInteger(t.partition) || t.partition < 0) {
      throw new TidemarkError(`invalid partition ${JSON.stringify(t.topic)}-${t.partition}`);
    }
    if (seen.has(key)) throw new TidemarkError(`partition ${t.topic}-${t.partition} is named twice`);
    seen.add(key);
    if (t.before !== 'high-watermark' && (typeof t.before !== 'bigint' || t.before < 0n)) {
      throw new TidemarkError(`${t.topic}-${t.partition}: "before" must be a non-negative bigint or 'high-watermark'`);
    }
  }
}
