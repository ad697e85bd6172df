/**
 * vitest globalSetup for the integration project: one 4.x and one 3.9 broker for the whole run, started in
 * parallel, stopped at teardown. KAFKA_BOOTSTRAP / KAFKA_BOOTSTRAP_LEGACY point at existing clusters instead;
 * TIDEMARK_BROKER=docker runs the brokers as containers.
 */
import type { TestProject } from 'vitest/node';
import { reapOrphanedBrokers, startBroker } from './broker.js';
import { dockerAvailable } from './docker-detect.js';
import './provided-context.js';
import { DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION } from './versions.js';

interface Endpoint {
  bootstrap: string;
  saslBootstrap: string | null;
  kafkaVersion: string | null;
  started: string | null;
  stop?: () => Promise<void>;
}

const log = (line: string) => process.stderr.write(`[tidemark harness] ${line}\n`);

async function launch(kafkaVersion: string, role: string, useDocker: boolean): Promise<Endpoint> {
  // Per-run names: two test runs in the same checkout (two engineers, or watch + CI) must not collide.
  const name = `vitest-${process.pid}-${role}`;
  // testcontainers is loaded only when asked for: it is slow to import and irrelevant to the jar broker.
  const b = useDocker
    ? await (await import('./docker-broker.js')).startDockerBroker({ kafkaVersion, name })
    : await startBroker({ kafkaVersion, name });
  const ms = 'timings' in b ? b.timings.totalMs : b.startMs;
  return { ...b, started: `${(ms / 1000).toFixed(1)} s`, stop: b.stop };
}

function external(bootstrap: string, sasl: string | undefined, version: string | undefined): Endpoint {
  return { bootstrap, saslBootstrap: sasl ?? null, kafkaVersion: version ?? null, started: null };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const useDocker = env.TIDEMARK_BROKER === 'docker';
  if (useDocker && !(await dockerAvailable())) {
    throw new Error('TIDEMARK_BROKER=docker but no Docker engine answers; unset it to run the broker from Maven jars');
  }
  if (!useDocker && !(env.KAFKA_BOOTSTRAP && env.KAFKA_BOOTSTRAP_LEGACY)) {
    const reaped = await reapOrphanedBrokers();
    if (reaped.length) log(`stopped brokers left by dead runs: ${reaped.join(', ')}`);
  }

  const main = env.KAFKA_BOOTSTRAP
    ? Promise.resolve(external(env.KAFKA_BOOTSTRAP, env.KAFKA_SASL_BOOTSTRAP, env.KAFKA_VERSION))
    : launch(DEFAULT_KAFKA_VERSION, 'main', useDocker);
  // An external main cluster means "use what I gave you": no broker is started behind the user's back.
  const legacy = env.KAFKA_BOOTSTRAP_LEGACY
    ? Promise.resolve(external(env.KAFKA_BOOTSTRAP_LEGACY, env.KAFKA_SASL_BOOTSTRAP_LEGACY, env.KAFKA_VERSION_LEGACY))
    : env.KAFKA_BOOTSTRAP
      ? Promise.resolve(null)
      : launch(LEGACY_KAFKA_VERSION, 'legacy', useDocker);

  const [m, l] = await Promise.allSettled([main, legacy]);
  const stopAll = async () => {
    await Promise.all(
      [m, l].map((r) => (r.status === 'fulfilled' && r.value?.stop ? r.value.stop().catch(() => {}) : undefined)),
    );
  };
  if (m.status === 'rejected' || l.status === 'rejected') {
    await stopAll();
    throw m.status === 'rejected' ? m.reason : (l as PromiseRejectedResult).reason;
  }
  for (const [label, e] of [
    ['main', m.value],
    ['legacy', l.value],
  ] as const) {
    if (!e) log(`${label}: none (KAFKA_BOOTSTRAP set without KAFKA_BOOTSTRAP_LEGACY); legacy tests skip`);
    else if (e.started)
      log(`${label}: Kafka ${e.kafkaVersion} at ${e.bootstrap} (SASL ${e.saslBootstrap}), up in ${e.started}`);
    else log(`${label}: external cluster at ${e.bootstrap}`);
  }

  project.provide('kafkaBootstrap', m.value.bootstrap);
  project.provide('kafkaSaslBootstrap', m.value.saslBootstrap);
  project.provide('kafkaVersion', m.value.kafkaVersion);
  project.provide('kafkaLegacyBootstrap', l.value?.bootstrap ?? null);
  project.provide('kafkaLegacySaslBootstrap', l.value?.saslBootstrap ?? null);
  project.provide('kafkaLegacyVersion', l.value?.kafkaVersion ?? null);
  return stopAll;
}
