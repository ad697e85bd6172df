export {
  COORDINATOR_BACKOFF,
  type CoordinatorCluster,
  Coordinators,
  type CoordinatorsOptions,
  shouldRediscover,
} from './coordinators.js';
export {
  type CoordinatorNode,
  type CoordinatorType,
  findCoordinators,
  isCoordinatorMovedCode,
} from './find-coordinator.js';
