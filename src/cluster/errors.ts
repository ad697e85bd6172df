import { TidemarkError } from '../../codecs/errors.js';

/** Metadata names no broker with this node id, even after a refresh. Retriable: brokers come and go. */
export class BrokerNotFoundError extends TidemarkError {
  override name = 'BrokerNotFoundError';

  constructor(readonly nodeId: number) {
    super(`no broker with node id ${nodeId} in the cluster metadata`, { retriable: true });
  }
}
