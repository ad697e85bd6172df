/**
 * `npm run bench` argument handling (bench/args.ts): workloads, `--all`, `--records`, `--clients`,
 * `--baseline` and the extra runners' flags, and a typed usage error for each bad argument.
 */
import { describe, expect, it } from 'vitest';
import { BenchUsageError, parseBenchArgs } from '../../../bench/args.js';
import { WORKLOADS } from '../../../bench/workloads.js';

const IDS = ['tidemark', 'kafkajs', 'java'];
const parse = (...argv: string[]) => parseBenchArgs(argv, IDS);

describe('bench arguments', () => {
  it('runs the headline alone by default, 3 rounds, every client', () => {
    const a = parse();
    expect(a.workloads.map((w) => w.name)).toEqual(['headline']);
    expect(a.workloads[0].records).toBe(2_000_000);
    expect(a.rounds).toBe(3);
    expect(a.clients).toBeUndefined();
    expect(a.baseline).toBeUndefined();
    expect(a.json).toBe(false);
  });

  it('--all runs every fetch workload, the scale workloads among them', () => {
    const names = parse('--all').workloads.map((w) => w.name);
    expect(names).toEqual(WORKLOADS.map((w) => w.name));
    expect(names).toEqual(expect.arrayContaining(['values-1k', 'snappy', 'lz4', 'zstd', 'partitions-1']));
    expect(names).toEqual(expect.arrayContaining(['partitions-1000', 'group-4']));
  });

  it('the scale workloads are the issue’s: 1,000 partitions of 2 M records; 4 members on 32 partitions', () => {
    const p = WORKLOADS.find((w) => w.name === 'partitions-1000');
    expect(p).toMatchObject({ partitions: 1000, records: 2_000_000, valueBytes: 100 });
    expect(p?.groupMembers).toBeUndefined();
    expect(WORKLOADS.find((w) => w.name === 'group-4')).toMatchObject({ partitions: 32, groupMembers: 4 });
  });

  it('--workload takes a list, and --records overrides each one’s count', () => {
    const a = parse('--workload', 'lz4, group-4', '--records', '200000', '--rounds', '1', '--json');
    expect(a.workloads.map((w) => [w.name, w.records])).toEqual([
      ['lz4', 200_000],
      ['group-4', 200_000],
    ]);
    expect(a.workloads[1].groupMembers).toBe(4);
    expect(a.rounds).toBe(1);
    expect(a.json).toBe(true);
  });

  it('--baseline keeps its ref, with every workload and --decode', () => {
    const a = parse('--baseline', 'HEAD~5', '--decode', '--clients', 'tidemark');
    expect(a.baseline).toBe('HEAD~5');
    expect(a.decode).toBe(true);
    expect(a.clients).toEqual(['tidemark']);
    expect(a.workloads.map((w) => w.name)).toEqual(['headline']);
    expect(parse('--baseline=main', '--all').baseline).toBe('main');
  });

  it('--commit or --transactions alone run no fetch workload; with --workload or --all they do', () => {
    expect(parse('--commit').workloads).toEqual([]);
    expect(parse('--transactions').workloads).toEqual([]);
    expect(parse('--commit', '--workload', 'headline').workloads).toHaveLength(1);
    expect(parse('--commit', '--all').workloads).toHaveLength(WORKLOADS.length);
  });

  it.each([
    [['--rounds', '0'], /--rounds must be a positive integer, not 0/],
    [['--rounds', '2.5'], /--rounds must be a positive integer/],
    [['--records', 'many'], /--records must be a positive integer, not many/],
    [['--records', '-3'], /--records/],
    [['--commits', '0'], /--commits must be a positive integer/],
    [['--workload', 'nope'], /unknown workload nope \(workloads: headline,/],
    [['--clients', 'tidemark,rdkafka'], /unknown client rdkafka \(clients: tidemark, kafkajs, java\)/],
    [['--all', '--workload', 'lz4'], /--all and --workload exclude each other/],
    [['--baseline', ''], /--baseline takes a git ref/],
    [['--baseline', '--json'], /--baseline' argument is ambiguous/],
    [['--no-such-flag'], /no-such-flag/],
  ])('rejects %j with a usage error', (argv, message) => {
    expect(() => parse(...argv)).toThrow(BenchUsageError);
    expect(() => parse(...argv)).toThrow(message);
  });
});
