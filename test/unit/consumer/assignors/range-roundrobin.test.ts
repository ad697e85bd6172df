import { describe, expect, it } from 'vitest';
import { createAssignor, RangeAssignor, RoundRobinAssignor } from '../../../../src/consumer/assignors/index.js';
import { m, run } from './helpers.js';

describe('range', () => {
  const range = new RangeAssignor();

  it('gives the first member (by member id) the extra partition', () => {
    expect(run(range, [m('c2', ['t0']), m('c1', ['t0'])], { t0: 3 })).toEqual({ c2: ['t0-2'], c1: ['t0-0', 't0-1'] });
  });

  it('lays out each topic separately (the Javadoc example), co-partitioning them', () => {
    expect(run(range, [m('C0', ['t0', 't1']), m('C1', ['t0', 't1'])], { t0: 3, t1: 3 })).toEqual({
      C0: ['t0-0', 't0-1', 't1-0', 't1-1'],
      C1: ['t0-2', 't1-2'],
    });
  });

  it('orders static members by group instance id, ahead of dynamic ones', () => {
    const members = [
      m('a', ['t0']),
      m('b', ['t0'], { groupInstanceId: 'i2' }),
      m('c', ['t0'], { groupInstanceId: 'i1' }),
    ];
    expect(run(range, members, { t0: 3 })).toEqual({ a: ['t0-2'], b: ['t0-1'], c: ['t0-0'] });
  });

  it('only counts subscribers, and skips topics without metadata', () => {
    expect(run(range, [m('a', ['t0', 'gone']), m('b', ['t1'])], { t0: 2, t1: 1 })).toEqual({
      a: ['t0-0', 't0-1'],
      b: ['t1-0'],
    });
  });

  it('matches racks within the same quotas (KIP-881)', () => {
    const topics = { t0: { partitions: 4, partitionRacks: [['b'], ['b'], ['a'], ['a']] } };
    const members = [m('c1', ['t0'], { rackId: 'a' }), m('c2', ['t0'], { rackId: 'b' })];
    expect(run(range, members, topics)).toEqual({ c1: ['t0-2', 't0-3'], c2: ['t0-0', 't0-1'] });
  });

  it('ignores racks when every partition is on every rack', () => {
    const topics = { t0: { partitions: 4, partitionRacks: Array.from({ length: 4 }, () => ['a', 'b']) } };
    const members = [m('c1', ['t0'], { rackId: 'b' }), m('c2', ['t0'], { rackId: 'a' })];
    expect(run(range, members, topics)).toEqual({ c1: ['t0-0', 't0-1'], c2: ['t0-2', 't0-3'] });
  });
});

describe('roundrobin', () => {
  const rr = new RoundRobinAssignor();

  it('deals partitions in turn (the Javadoc example)', () => {
    expect(run(rr, [m('C0', ['t0', 't1']), m('C1', ['t0', 't1'])], { t0: 3, t1: 3 })).toEqual({
      C0: ['t0-0', 't0-2', 't1-1'],
      C1: ['t0-1', 't1-0', 't1-2'],
    });
  });

  it('skips members not subscribed to a topic (the Javadoc example)', () => {
    const members = [m('C0', ['t0']), m('C1', ['t0', 't1']), m('C2', ['t0', 't1', 't2'])];
    expect(run(rr, members, { t0: 1, t1: 2, t2: 3 })).toEqual({
      C0: ['t0-0'],
      C1: ['t1-0'],
      C2: ['t1-1', 't2-0', 't2-1', 't2-2'],
    });
  });

  it('keeps the order of static members across new member ids', () => {
    const before = run(rr, [m('x1', ['t0'], { groupInstanceId: 'I0' }), m('x2', ['t0'], { groupInstanceId: 'I1' })], {
      t0: 4,
    });
    const after = run(rr, [m('y9', ['t0'], { groupInstanceId: 'I0' }), m('y0', ['t0'], { groupInstanceId: 'I1' })], {
      t0: 4,
    });
    expect(Object.values(after)).toEqual(Object.values(before));
  });
});

describe('built-in assignors', () => {
  it('carry Kafka protocol names and rebalance protocols', () => {
    expect(['range', 'roundrobin', 'sticky', 'cooperative-sticky'].map((n) => createAssignor(n as never).name)).toEqual(
      ['range', 'roundrobin', 'sticky', 'cooperative-sticky'],
    );
    expect(createAssignor('cooperative-sticky').protocols).toEqual(['cooperative', 'eager']);
    expect(createAssignor('sticky').protocols).toEqual(['eager']);
  });

  it('give an empty group nothing', () => {
    for (const name of ['range', 'roundrobin', 'sticky', 'cooperative-sticky'] as const) {
      expect(createAssignor(name).assign([], new Map([['t0', { partitions: 3 }]])).size).toBe(0);
    }
  });
});
