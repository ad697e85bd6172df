/**
 * max.poll.interval.ms: fires `onExpired` when the application has not come back for records (`touch`) within the
 * interval. Time spent inside the member's own rebalance callbacks does not count (`busy`): the application is
 * working for the group then, and a rebalance timeout bounds it on the broker side.
 */
export class PollTimer {
  private lastPoll = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private busyDepth = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly onExpired: (idleMs: number) => void,
  ) {}

  /** Starts (or restarts) watching from now. */
  start(): void {
    this.running = true;
    this.touch();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The application polled. */
  touch(): void {
    this.lastPoll = Date.now();
    if (this.running) this.schedule(this.intervalMs);
  }

  /** Runs `work` (a rebalance callback) without the clock running against the application. */
  async busy<T>(work: () => Promise<T>): Promise<T> {
    this.busyDepth++;
    try {
      return await work();
    } finally {
      this.busyDepth--;
      if (this.busyDepth === 0 && this.running) this.touch();
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), ms);
    // Not a reason to keep the process alive: heartbeats and sockets are.
    this.timer.unref();
  }

  private check(): void {
    this.timer = undefined;
    if (!this.running) return;
    // The end of the callback touches the clock; until then there is nothing to decide.
    if (this.busyDepth > 0) {
      this.schedule(this.intervalMs);
      return;
    }
    const idle = Date.now() - this.lastPoll;
    if (idle < this.intervalMs) {
      this.schedule(Math.max(1, this.intervalMs - idle));
      return;
    }
    this.running = false;
    this.onExpired(idle);
  }
}
