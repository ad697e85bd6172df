/**
 * Helpers of the security admin tests. A broker answers an admin write (CreateAcls, AlterUserScramCredentials,
 * AlterClientQuotas) once the controller has committed it, but serves reads and authorizes requests from its
 * own copy of the metadata log, which replays the change a moment later: Kafka's own tools see the same gap.
 */

/** Polls until `check` passes (10 s at most), then rethrows its last failure. */
export async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The error a promise rejects with; fails when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: Error) => err,
  );
}
