/** What the facade's integration tests share: the brokers each runs against, and waiting for a condition. */
import { bootstrap, legacyBootstrap } from '../../harness/context.js';

/** The 4.x and 3.9 brokers (address null when one is not available, for `it.skipIf`). */
export const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

/** Polls `check` every 5 ms; throws naming `what` after 30 s. */
export async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
