/**
 * Waiting for a change to show. A broker answers an admin write (AlterConfigs, CreatePartitions, CreateAcls,
 * AlterUserScramCredentials, AlterClientQuotas, …) once the controller has committed it, but serves reads from
 * its own copy of the metadata log, which replays the change a moment later: Kafka's own tools see the same gap.
 * A test that reads right after it writes therefore polls.
 */

/**
 * Polls until `check` passes (10 s at most unless `timeoutMs` says otherwise), then rethrows its last failure;
 * returns what `check` returned.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
