/** The server.properties a cluster node gets: its own id, every node as a voter, replication for acks=all. */
import { describe, expect, it } from 'vitest';
import { serverProperties } from '../../harness/broker-config.js';
import { clusterOverrides } from '../../harness/cluster.js';

function parse(text: string): Map<string, string> {
  const entries = text
    .trim()
    .split('\n')
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  // A key written twice would leave Kafka to pick one: every key must appear once.
  expect(new Set(entries.map(([k]) => k)).size).toBe(entries.length);
  return new Map(entries);
}

const ports = { plaintext: 9092, sasl: 9093, controller: 9094 };

describe('cluster node configuration', () => {
  it('names the node, all voters, and overrides the single-broker replication settings', () => {
    const voters = '1@127.0.0.1:9094,2@127.0.0.1:9194,3@127.0.0.1:9294';
    const props = parse(
      serverProperties({
        kafkaVersion: '4.4.0',
        ports,
        logDir: '/tmp/x',
        node: { id: 2, quorumVoters: voters },
        overrides: clusterOverrides('4.4.0', 3),
      }),
    );
    expect(props.get('node.id')).toBe('2');
    expect(props.get('controller.quorum.voters')).toBe(voters);
    expect(props.get('default.replication.factor')).toBe('3');
    expect(props.get('min.insync.replicas')).toBe('2');
    expect(props.get('offsets.topic.replication.factor')).toBe('3');
    expect(props.get('transaction.state.log.min.isr')).toBe('2');
    expect(props.get('share.coordinator.state.topic.replication.factor')).toBe('3');
    expect(props.get('unclean.leader.election.enable')).toBe('false');
  });

  it('leaves a single broker as it was', () => {
    const props = parse(serverProperties({ kafkaVersion: '4.4.0', ports, logDir: '/tmp/x' }));
    expect(props.get('node.id')).toBe('1');
    expect(props.get('controller.quorum.voters')).toBe('1@127.0.0.1:9094');
    expect(props.get('default.replication.factor')).toBe('1');
    expect(props.has('min.insync.replicas')).toBe(false);
  });

  it('scales replication down for smaller clusters and skips share-group keys before Kafka 4', () => {
    expect(clusterOverrides('4.4.0', 1)).toMatchObject({ 'default.replication.factor': 1, 'min.insync.replicas': 1 });
    expect(clusterOverrides('3.9.1', 5)).toMatchObject({ 'default.replication.factor': 3, 'min.insync.replicas': 2 });
    expect(Object.keys(clusterOverrides('3.9.1', 3)).some((k) => k.startsWith('share.'))).toBe(false);
  });
});
