import { TidemarkError } from '../../codecs/errors.js';
import { CreatePartitions } from '../../protocol/apis/create-partitions.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type AdminCallOptions, type AdminContext, deadlineOf } from './admin-context.js';
import { throwTopicErrors } from './errors.js';

/** Adding partitions to existing topics (CreatePartitions); Kafka never removes partitions. */

export interface NewPartitions {
  topic: string;
  /** The new total partition count (not the number added); must be above the current one. */
  count: number;
  /** Replica broker ids of each new partition, in order (one list per partition added). */
  assignments?: readonly (readonly number[])[];
}

export interface CreatePartitionsOptions extends AdminCallOptions {
  /** Only check: the controller validates the change and makes none. */
  validateOnly?: boolean;
  /** Resolve only once metadata shows the new partitions with leaders (default true; not with validateOnly). */
  waitForLeaders?: boolean;
}

export interface CreatedPartitions {
  topic: string;
  count: number;
}

/**
 * Raises partition counts. A count at or below the current one, an unknown topic or a bad assignment throws
 * the controller's KafkaError (INVALID_PARTITIONS, UNKNOWN_TOPIC_OR_PARTITION, INVALID_REPLICA_ASSIGNMENT) with
 * its message; several failing topics throw TopicErrors carrying the ones that succeeded.
 */
export async function createPartitions(
  ctx: AdminContext,
  topics: readonly NewPartitions[],
  options: CreatePartitionsOptions = {},
): Promise<CreatedPartitions[]> {
  check(topics);
  const deadline = deadlineOf(ctx, 'CreatePartitions', options);
  const connection = await deadline.race(ctx.cluster.controllerConnection());
  const version = options.version ?? connection.versionFor(CreatePartitions);
  const brokerTimeoutMs = Math.max(1, deadline.remaining());
  const response = await connection.request(
    CreatePartitions,
    {
      topics: topics.map((t) => ({
        name: t.topic,
        count: t.count,
        assignments: t.assignments === undefined ? null : t.assignments.map((ids) => ({ brokerIds: [...ids] })),
      })),
      timeoutMs: brokerTimeoutMs,
      validateOnly: options.validateOnly === true,
    },
    { ...deadline.requestOptions(ctx.requestTimeoutMs + brokerTimeoutMs), version },
  );
  const errors = new Map<string, ReturnType<typeof kafkaError>>();
  const created: CreatedPartitions[] = [];
  for (const r of response.results) {
    if (r.errorCode !== 0) {
      const context = { api: 'CreatePartitions', version, topic: r.name };
      errors.set(r.name, kafkaError(r.errorCode, { message: r.errorMessage, context }));
    } else {
      created.push({ topic: r.name, count: topics.find((t) => t.topic === r.name)?.count ?? -1 });
    }
  }
  if (!options.validateOnly) {
    for (const c of created) ctx.cluster.metadataCache.invalidate(c.topic);
    if (options.waitForLeaders !== false) await waitForPartitions(ctx, created, deadline);
  }
  throwTopicErrors('CreatePartitions', errors, created);
  return created;
}

/** Polls metadata until every topic shows its new partitions with leaders, until the deadline. */
async function waitForPartitions(
  ctx: AdminContext,
  created: CreatedPartitions[],
  deadline: ReturnType<typeof deadlineOf>,
): Promise<void> {
  if (created.length === 0) return;
  for (let attempt = 1; ; attempt++) {
    const md = await deadline.race(ctx.cluster.metadata({ topics: created.map((c) => c.topic) }));
    const ready = created.every((c) => {
      const t = md.topics.get(c.topic);
      return t !== undefined && t.partitions.length >= c.count && t.partitions.every((p) => p.leader >= 0);
    });
    if (ready) return;
    await deadline.backoff(attempt, undefined, { initialMs: 50, maxMs: 1_000 });
    for (const c of created) ctx.cluster.metadataCache.invalidate(c.topic);
  }
}

function check(topics: readonly NewPartitions[]): void {
  if (topics.length === 0) throw new TidemarkError('no topics given');
  const seen = new Set<string>();
  for (const t of topics) {
    if (typeof t.topic !== 'string' || t.topic === '')
      throw new TidemarkError(`invalid topic ${JSON.stringify(t.topic)}`);
    if (seen.has(t.topic)) throw new TidemarkError(`topic ${t.topic} is named twice`);
    seen.add(t.topic);
    if (!Number.isInteger(t.count) || t.count < 1 || t.count > 2 ** 31 - 1) {
      throw new TidemarkError(`${t.topic}: partition count must be a positive int32, got ${t.count}`);
    }
  }
}
