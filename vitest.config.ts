import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Four projects, all run by `vitest run` (npm test):
 * - unit: codecs and logic, no broker, fast;
 * - integration: real Kafka brokers (4.x and 3.9) started once per run by the global setup;
 * - conformance: Kafka's own Java serializers as the oracle (Java + Maven, no broker);
 * - runtimes: the unit project again on Bun and on Deno (test/integration/runtimes/unit-suites.test.ts).
 * `vitest run --project unit` runs only the first and starts nothing.
 */
const RUNTIME_UNIT_SUITES = 'test/integration/runtimes/unit-suites.test.ts';
export default defineConfig({
  test: {
    // Teardown stops the brokers: a clean Kafka shutdown takes seconds, and SIGKILL follows only after 15 s.
    teardownTimeout: 60_000,
    // Only the integration project runs on forks; two of its files at a time (see there).
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      {
        test: {
          name: 'unit',
          // test/runtimes: unit tests of what differs on Bun and Deno, run on Node here as well.
          include: ['test/unit/**/*.test.ts', 'test/runtimes/**/*.test.ts'],
          environment: 'node',
          // Threads, not the forks the integration project uses: vitest runs one pool's files after another's
          // when both are forks, so the unit files would hold up the integration fork for a minute and a half.
          // On threads they run beside it. Nothing here needs a process of its own (no chdir; the memory checks read
          // only the worker's own figures, as process.memoryUsage() does in a worker except for rss); child
          // processes are started explicitly where a test needs one.
          pool: 'threads',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, RUNTIME_UNIT_SUITES],
          environment: 'node',
          globalSetup: ['test/harness/global-setup.ts'],
          // Two files at a time, each in a fork of its own (maxForks above; vitest takes it only at the root).
          // Most of an integration file's time is waiting: on brokers and clusters it starts, on JVM tools, on
          // timeouts it provokes. One after another, the project was the long pole of a 28-minute CI run on
          // this 2-core machine; two at a time, every file passed in a run beside other engineers' soaks and
          // builds (load 5-12), after two waits that had assumed a quiet machine were fixed (acls, kill-loop).
          // Files share the two brokers of the global setup, so topics and groups are named per test
          // (uniqueTopicName, uniqueGroup); brokers a file starts itself carry its process id.
          pool: 'forks',
          poolOptions: { forks: { singleFork: false } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          environment: 'node',
          // The first run compiles and starts a JVM oracle, shared by the files in one thread. Threads, beside the
          // integration fork rather than after it (see the unit project).
          pool: 'threads',
          poolOptions: { threads: { singleThread: true } },
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'runtimes',
          include: [RUNTIME_UNIT_SUITES],
          environment: 'node',
          // Another pool than the forks the other projects use: vitest runs each pool's files at once with the
          // others', so the Bun and Deno runs (minutes, no broker) overlap the Node unit and integration suites
          // instead of waiting for the single integration fork. The test itself only waits on child processes.
          pool: 'threads',
        },
      },
    ],
  },
});
