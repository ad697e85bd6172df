/**
 * Brokers tied to this process (started by a test run, not by the CLI): killed synchronously when it exits,
 * so a run that dies without teardown leaves nothing behind. The next run's reaper covers a SIGKILLed run.
 */
import { rmSync } from 'node:fs';
import { brokerStateDir } from './paths.js';
import { isOurProcess } from './process.js';

/** Leaves data and logs behind after stop, for post-mortems. */
export const keepData = () => process.env.TIDEMARK_KEEP_BROKER_DATA === '1';

const owned = new Map<string, { pid: number; dataDir: string }>();
let exitHookInstalled = false;

/** Records (or updates, after a restart) the process of a broker owned by this process. */
export function own(name: string, pid: number, dataDir: string): void {
  owned.set(name, { pid, dataDir });
  installExitHook();
}

export function isOwned(name: string): boolean {
  return owned.has(name);
}

export function disown(name: string): void {
  owned.delete(name);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Only synchronous work runs in an 'exit' handler.
  process.once('exit', () => {
    for (const [name, { pid, dataDir }] of owned) {
      if (isOurProcess(pid, dataDir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      if (!keepData()) rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
      rmSync(brokerStateDir(name), { recursive: true, force: true });
    }
  });
}
