/**
 * Lets one task run alone on a connection (re-authentication, KIP-368): requests made while it runs wait until
 * it ends, and it starts only once every request already in flight has its response. A second task waits for
 * the first.
 */
export class ExclusiveGate {
  private paused: Promise<void> | undefined;
  /** Called when the last in-flight request settles, while a task waits to start. */
  private drained: (() => void) | undefined;

  /** While a task runs (or waits to start): what other requests must wait for. */
  get closedUntil(): Promise<void> | undefined {
    return this.paused;
  }

  async run<T>(inFlight: () => number, task: () => Promise<T>): Promise<T> {
    while (this.paused !== undefined) await this.paused;
    let release = () => {};
    this.paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (inFlight() > 0) {
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
      }
      return await task();
    } finally {
      this.paused = undefined;
      this.drained = undefined;
      release();
    }
  }

  /** A request settled, leaving `inFlight`: a waiting task starts once that is none. */
  settled(inFlight: number): void {
    if (this.drained !== undefined && inFlight === 0) this.drained();
  }
}
