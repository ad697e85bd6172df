import { FindCoordinator } from '../../protocol/apis/find-coordinator.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import { clientVersions } from '../network/api-versions.js';
import type { Connection, RequestOptions } from '../network/connection.js';
import { UnsupportedVersionError } from '../network/errors.js';

/** What a coordinator is looked up for: a consumer group, or a transactional id. */
export type CoordinatorType = 'group' | 'transaction';

const KEY_TYPE: Record<CoordinatorType, number> = { group: 0, transaction: 1 };

/** The broker that coordinates a key. */
export interface CoordinatorNode {
  nodeId: number;
  host: string;
  port: number;
}

/** Codes that mean "ask again where the coordinator is": it moved, is down, or is still loading its state. */
const COORDINATOR_MOVED_CODES: ReadonlySet<number> = new Set([
  ErrorCode.NOT_COORDINATOR,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
]);

export function isCoordinatorMovedCode(code: number): boolean {
  return COORDINATOR_MOVED_CODES.has(code);
}

/**
 * Looks up the coordinators of `keys` on one connection: all keys in one request from v4 (KIP-699), one
 * request per key before (pipelined on the connection). Each key gets its node or its own typed error.
 */
export async function findCoordinators(
  connection: Connection,
  type: CoordinatorType,
  keys: readonly string[],
  options: RequestOptions = {},
): Promise<Map<string, CoordinatorNode | KafkaError>> {
  const version = options.version ?? connection.versionFor(FindCoordinator);
  if (type === 'transaction' && version < 1) {
    const err = new UnsupportedVersionError('FindCoordinator', FindCoordinator.key, clientVersions(FindCoordinator), {
      min: 0,
      max: version,
    });
    err.message = `looking up a transaction coordinator needs FindCoordinator v1+, but v${version} is in use`;
    throw err;
  }
  const found = new Map<string, CoordinatorNode | KafkaError>();
  const context = (key: string) => ({
    api: 'FindCoordinator',
    version,
    [type === 'group' ? 'groupId' : 'transactionalId']: key,
  });
  if (version >= 4) {
    const response = await connection.request(
      FindCoordinator,
      { keyType: KEY_TYPE[type], coordinatorKeys: [...keys] },
      { ...options, version },
    );
    for (const c of response.coordinators) {
      found.set(
        c.key,
        c.errorCode === 0
          ? { nodeId: c.nodeId, host: c.host, port: c.port }
          : kafkaError(c.errorCode, { message: c.errorMessage, context: context(c.key) }),
      );
    }
  } else {
    await Promise.all(
      keys.map(async (key) => {
        const r = await connection.request(FindCoordinator, { key, keyType: KEY_TYPE[type] }, { ...options, version });
        found.set(
          key,
          r.errorCode === 0
            ? { nodeId: r.nodeId, host: r.host, port: r.port }
            : kafkaError(r.errorCode, { message: r.errorMessage, context: context(key) }),
        );
      }),
    );
  }
  for (const key of keys) {
    if (!found.has(key)) {
      found.set(
        key,
        kafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, {
          message: 'the broker answered for other keys but not this one',
          context: context(key),
        }),
      );
    }
  }
  return found;
}
