/**
 * Helpers of the security admin tests: shared brokers and clients, and waiting for a change to show (a broker
 * also authorizes requests from its own copy of the metadata log, so an ACL change takes a moment to apply).
 */
import { afterAll, beforeAll } from 'vitest';
import { Client } from '../../../src/client.js';
import { bootstrap, legacyBootstrap } from '../../harness/context.js';

export { eventually } from '../../harness/eventually.js';

/** The error a promise rejects with; fails when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: Error) => err,
  );
}

/** The shared brokers (PLAINTEXT) by generation; null where this run has none. */
export function sharedBrokers(): (readonly [generation: string, bootstrap: string | null])[] {
  return [
    ['4.4', bootstrap()],
    ['3.9', legacyBootstrap()],
  ];
}

/** A client of `address` for the enclosing describe block: created before its tests, closed after. */
export function useClient(address: () => string): () => Client {
  let client: Client | undefined;
  beforeAll(() => {
    client = new Client({ bootstrap: address() });
  });
  afterAll(async () => {
    await client?.close();
  });
  return () => client!;
}
