import { ListOffsets, type ListOffsetsRequestInput } from '../../protocol/apis/list-offsets.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { clientVersions } from '../network/api-versions.js';
import type { Connection } from '../network/connection.js';
import { ImplausibleResponseError, UnsupportedVersionError } from '../network/errors.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import type { BackoffOptions } from './backoff.js';
import { type CallOptions, Deadline } from './deadline.js';
import { groupBy } from './group-by.js';
import { type LeaderAnswer, type LeaderItem, type LeaderLookup, sendToLeaders } from './leader-requests.js';
import { type PartitionFailure, partitionKey, throwPartitionFailures } from './partition-errors.js';

/**
 * Which offset of a partition to look up. A timestamp finds the first record whose timestamp is at or after
 * it; the named specs map to Kafka's special timestamps, each usable from the ListOffsets version that
 * introduced it.
 */
export type OffsetSpec =
  /** -1: the log end offset (next offset to be written); with read_committed, the last stable offset. */
  | 'latest'
  /** -2: the log start offset. */
  | 'earliest'
  /** -3 (v7+, KIP-734): the offset and timestamp of the record with the largest timestamp. */
  | 'max-timestamp'
  /** -4 (v8+, KIP-405): the start of the part of the log still held locally (tiered storage). */
  | 'earliest-local'
  /** -5 (v9+, KIP-1005): the highest offset already copied to remote storage; -1 without tiering. */
  | 'latest-tiered'
  /** -6 (v11+, KIP-1023): the lowest offset not yet copied to remote storage. */
  | 'earliest-pending-upload'
  | { timestamp: number | bigint | Date };

const SPECIAL_SPECS = {
  latest: { timestamp: -1n, minVersion: 0 },
  earliest: { timestamp: -2n, minVersion: 0 },
  'max-timestamp': { timestamp: -3n, minVersion: 7 },
  'earliest-local': { timestamp: -4n, minVersion: 8 },
  'latest-tiered': { timestamp: -5n, minVersion: 9 },
  'earliest-pending-upload': { timestamp: -6n, minVersion: 11 },
} as const;

export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export interface ListOffsetsQuery {
  topic: string;
  partition: number;
  spec: OffsetSpec;
}

export interface ListedOffset {
  topic: string;
  partition: number;
  /** -1 when no record matches (a timestamp after the last record; `latest-tiered` without tiering). */
  offset: bigint;
  /** The matching record's timestamp for timestamp and max-timestamp lookups; -1 otherwise. */
  timestamp: bigint;
  /** The leader epoch of the record at `offset`, or -1 (ListOffsets v0-3, or none known). */
  leaderEpoch: number;
}

export interface ListOffsetsOptions extends CallOptions {
  /** Default read_uncommitted: `latest` is the high watermark; read_committed makes it the last stable offset. */
  isolationLevel?: IsolationLevel;
  /** Forces the ListOffsets version (tests of each version). */
  version?: number;
}

export interface ListOffsetsContext {
  cluster: LeaderLookup;
  requestTimeoutMs: number;
  backoff?: BackoffOptions;
}

/** A spec the negotiated ListOffsets version cannot express (e.g. max-timestamp before v7). */
export class UnsupportedOffsetSpecError extends UnsupportedVersionError {
  override name = 'UnsupportedOffsetSpecError';

  constructor(
    readonly spec: string,
    readonly minVersion: number,
    readonly negotiatedVersion: number,
    broker: string,
  ) {
    super('ListOffsets', ListOffsets.key, clientVersions(ListOffsets), undefined, negotiatedVersion, broker);
    this.message =
      `ListOffsets spec '${spec}' needs ListOffsets v${minVersion}+, but broker ${broker} and tidemark ` +
      `share only up to v${negotiatedVersion}`;
  }
}

/** The timestamp a spec goes on the wire as. */
export function specTimestamp(spec: OffsetSpec): bigint {
  if (typeof spec === 'string') {
    const special = SPECIAL_SPECS[spec];
    if (special === undefined) throw new TypeError(`unknown offset spec ${JSON.stringify(spec)}`);
    return special.timestamp;
  }
  const t = spec.timestamp;
  const value = t instanceof Date ? BigInt(t.getTime()) : BigInt(t);
  if (value < 0n) throw new RangeError(`a timestamp must not be negative (got ${value}); use a named spec`);
  return value;
}

function specName(spec: OffsetSpec): string {
  return typeof spec === 'string' ? spec : `timestamp ${specTimestamp(spec)}`;
}

function minVersionOf(spec: OffsetSpec): number {
  return typeof spec === 'string' ? SPECIAL_SPECS[spec].minVersion : 0;
}

/**
 * Looks offsets up at the partitions' leaders, one request per leader, in the order of `queries`. Leader
 * changes and unavailable offsets are retried after a metadata refresh until the deadline; a partition that
 * fails for good throws its typed error (PartitionErrors when partitions failed differently).
 */
export async function listOffsets(
  ctx: ListOffsetsContext,
  queries: readonly ListOffsetsQuery[],
  options: ListOffsetsOptions = {},
): Promise<ListedOffset[]> {
  const { listed, failures } = await listOffsetsSettled(ctx, queries, options);
  throwPartitionFailures('ListOffsets', failures, listed);
  return listed;
}

/** As listOffsets, but partitions that failed for good are returned beside the answers instead of thrown. */
export async function listOffsetsSettled(
  ctx: ListOffsetsContext,
  queries: readonly ListOffsetsQuery[],
  options: ListOffsetsOptions = {},
): Promise<{ listed: ListedOffset[]; failures: PartitionFailure[] }> {
  const deadline = Deadline.of('ListOffsets', options, ctx.requestTimeoutMs);
  for (const q of queries) specTimestamp(q.spec); // reject bad specs before any request
  const isolation = options.isolationLevel ?? 'read_uncommitted';
  if (isolation !== 'read_uncommitted' && isolation !== 'read_committed') {
    throw new TypeError(`unknown isolation level ${JSON.stringify(isolation)}`);
  }
  const { results, failures } = await sendToLeaders(
    ctx.cluster,
    queries,
    deadline,
    (connection, items) =>
      sendListOffsets(connection, items, isolation, deadline, ctx.requestTimeoutMs, options.version),
    ctx.backoff,
  );
  const listed = queries.flatMap((q) => {
    const r = results.get(q);
    return r === undefined ? [] : [r];
  });
  return { listed, failures };
}

async function sendListOffsets(
  connection: Connection,
  items: LeaderItem<ListOffsetsQuery>[],
  isolation: IsolationLevel,
  deadline: Deadline,
  requestTimeoutMs: number,
  forcedVersion: number | undefined,
): Promise<LeaderAnswer<ListOffsetsQuery, ListedOffset>[]> {
  const version = forcedVersion ?? connection.versionFor(ListOffsets);
  for (const { query } of items) {
    if (minVersionOf(query.spec) > version) {
      throw new UnsupportedOffsetSpecError(specName(query.spec), minVersionOf(query.spec), version, connection.address);
    }
  }
  if (isolation === 'read_committed' && version < 2) {
    const err = new UnsupportedVersionError('ListOffsets', ListOffsets.key, clientVersions(ListOffsets), undefined);
    err.message = `read_committed needs ListOffsets v2+, but v${version} is in use with broker ${connection.address}`;
    throw err;
  }
  // A partition may be asked about twice (two specs); those go in separate requests, since the answer names
  // only the partition.
  const seen = new Map<string, number>();
  const rounds = groupBy(items, (item) => {
    const key = partitionKey(item.query.topic, item.query.partition);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n;
  });
  const answers = await Promise.all(
    [...rounds.values()].map((round) => oneRequest(connection, round, isolation, deadline, requestTimeoutMs, version)),
  );
  return rejectImpossibleRanges(answers.flat(), version);
}

/**
 * A log start above the log end is an answer no broker gives (a bit flipped on the way, in a field nothing
 * checksums): both answers for the partition become a retriable ImplausibleResponseError, so the lookup is
 * retried instead of a position being computed from it.
 */
function rejectImpossibleRanges(
  answers: LeaderAnswer<ListOffsetsQuery, ListedOffset>[],
  version: number,
): LeaderAnswer<ListOffsetsQuery, ListedOffset>[] {
  const earliest = new Map<string, bigint>();
  const latest = new Map<string, bigint>();
  for (const a of answers) {
    if (!('result' in a)) continue;
    const key = partitionKey(a.query.topic, a.query.partition);
    if (a.query.spec === 'earliest') earliest.set(key, a.result.offset);
    if (a.query.spec === 'latest') latest.set(key, a.result.offset);
  }
  return answers.map((a) => {
    if (!('result' in a)) return a;
    const { topic, partition } = a.query;
    const key = partitionKey(topic, partition);
    const start = earliest.get(key);
    const end = latest.get(key);
    if (start === undefined || end === undefined || start <= end) return a;
    const reason = `${topic}-${partition}: log start offset ${start} lies above log end offset ${end}`;
    return { query: a.query, error: new ImplausibleResponseError(reason, { api: 'ListOffsetsResponse', version }) };
  });
}

/** An offset no broker answers with: below -1, or negative for the log start or end (which always exist). */
function implausibleOffset(
  query: ListOffsetsQuery,
  offset: bigint,
  version: number,
): ImplausibleResponseError | undefined {
  const bound = version > 0 && (query.spec === 'earliest' || query.spec === 'latest') ? 0n : -1n;
  if (offset >= bound) return undefined;
  return new ImplausibleResponseError(
    `${query.topic}-${query.partition}: offset ${offset} for ${specName(query.spec)}`,
    {
      api: 'ListOffsetsResponse',
      version,
      field: 'offset',
    },
  );
}

async function oneRequest(
  connection: Connection,
  items: LeaderItem<ListOffsetsQuery>[],
  isolation: IsolationLevel,
  deadline: Deadline,
  requestTimeoutMs: number,
  version: number,
): Promise<LeaderAnswer<ListOffsetsQuery, ListedOffset>[]> {
  const byTopic = groupBy(items, (item) => item.query.topic);
  const requestOptions = deadline.requestOptions(requestTimeoutMs);
  const request: ListOffsetsRequestInput = {
    replicaId: -1,
    isolationLevel: isolation === 'read_committed' ? 1 : 0,
    topics: [...byTopic].map(([name, list]) => ({
      name,
      partitions: list.map(({ query, currentLeaderEpoch }) => ({
        partitionIndex: query.partition,
        currentLeaderEpoch,
        timestamp: specTimestamp(query.spec),
        maxNumOffsets: 1,
      })),
    })),
    // v10+: how long the broker may wait for remote storage; it must answer before the request times out.
    timeoutMs: requestOptions.timeoutMs,
  };
  let response: Awaited<ReturnType<typeof connection.request<typeof ListOffsets>>>;
  try {
    response = await connection.request(ListOffsets, request, { ...requestOptions, version });
  } catch (err) {
    // Else every retry would wait on the same silent connection.
    closeIfTimedOut(connection, err);
    throw err;
  }
  const answers: LeaderAnswer<ListOffsetsQuery, ListedOffset>[] = [];
  for (const t of response.topics) {
    const list = byTopic.get(t.name) ?? [];
    for (const p of t.partitions) {
      const item = list.find((i) => i.query.partition === p.partitionIndex);
      if (item === undefined) continue;
      const { query } = item;
      if (p.errorCode !== 0) {
        const context = {
          api: 'ListOffsets',
          version,
          broker: connection.nodeId,
          topic: t.name,
          partition: query.partition,
        };
        answers.push({ query, error: kafkaError(p.errorCode, { context }) });
        continue;
      }
      const v0 = version === 0;
      const offset = v0 ? (p.oldStyleOffsets[0] ?? -1n) : p.offset;
      const implausible = implausibleOffset(query, offset, version);
      if (implausible !== undefined) {
        answers.push({ query, error: implausible });
        continue;
      }
      answers.push({
        query,
        result: {
          topic: query.topic,
          partition: query.partition,
          offset,
          timestamp: v0 ? -1n : p.timestamp,
          leaderEpoch: p.leaderEpoch,
        },
      });
    }
  }
  return answers;
}
