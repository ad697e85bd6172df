/**
 * Runs heartbeats on their own timer, independent of how long the application takes with its records: a tick
 * sends one heartbeat and says when the next is due (the interval after success, a backoff after a failure, the
 * interval the KIP-848 coordinator asked for), or null to stop. Ticks never overlap; `now()` asks for one as soon
 * as the current one (if any) is done, e.g. to acknowledge a reconciled assignment at once.
 */
export class HeartbeatTimer {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private running = false;

  constructor(private readonly tick: () => Promise<number | null>) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts ticking: the first tick after `firstDelayMs`. Restarting reschedules. */
  start(firstDelayMs: number): void {
    this.running = true;
    this.schedule(firstDelayMs);
  }

  /** Stops; a tick in flight finishes but schedules nothing. Resolves when it has finished. */
  async stop(): Promise<void> {
    this.running = false;
    this.again = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /** A heartbeat as soon as possible. */
  now(): void {
    if (!this.running) return;
    if (this.inFlight !== undefined) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), Math.max(0, ms));
  }

  private run(): void {
    this.timer = undefined;
    if (!this.running || this.inFlight !== undefined) return;
    this.inFlight = (async () => {
      let next: number | null = null;
      try {
        next = await this.tick();
      } catch {
        // A tick reports its own errors; one that escapes is retried after a pause rather than ending liveness.
        next = 1_000;
      }
      this.inFlight = undefined;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      } else if (next === null) this.running = false;
      else this.schedule(next);
    })();
  }
}
