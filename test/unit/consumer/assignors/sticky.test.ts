import { describe, expect, it } from 'vitest';
import {
  CooperativeStickyAssignor,
  encodeStickyUserData,
  StickyAssignor,
} from '../../../../src/consumer/assignors/index.js';
import { m, owned, run } from './helpers.js';

/** Sticky userData as a Java member would send it: what it had, in which generation. */
const had = (generation: number, ...tps: string[]) => ({
  userData: encodeStickyUserData({
    partitions: owned(...tps).flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition }))),
    generation,
  }),
  generationId: generation,
});

describe('sticky', () => {
  const topics4x2 = { t0: 2, t1: 2, t2: 2, t3: 2 };

  it('starts like roundrobin (Javadoc example 1) and keeps every partition when a member leaves', () => {
    const first = run(
      new StickyAssignor(),
      ['C0', 'C1', 'C2'].map((id) => m(id, Object.keys(topics4x2))),
      topics4x2,
    );
    expect(first).toEqual({
      C0: ['t0-0', 't1-1', 't3-0'],
      C1: ['t0-1', 't2-0', 't3-1'],
      C2: ['t1-0', 't2-1'],
    });
    const second = run(
      new StickyAssignor(),
      [m('C0', Object.keys(topics4x2), had(1, ...first.C0)), m('C2', Object.keys(topics4x2), had(1, ...first.C2))],
      topics4x2,
    );
    expect(second.C0).toEqual(expect.arrayContaining(first.C0));
    expect(second.C2).toEqual(expect.arrayContaining(first.C2));
    expect(second.C0.length + second.C2.length).toBe(8);
    expect(Math.abs(second.C0.length - second.C2.length)).toBe(0);
  });

  it('balances better than roundrobin with differing subscriptions (Javadoc example 2)', () => {
    const topics = { t0: 1, t1: 2, t2: 3 };
    const members = [m('C0', ['t0']), m('C1', ['t0', 't1']), m('C2', ['t0', 't1', 't2'])];
    const first = run(new StickyAssignor(), members, topics);
    expect(first).toEqual({ C0: ['t0-0'], C1: ['t1-0', 't1-1'], C2: ['t2-0', 't2-1', 't2-2'] });
    const second = run(
      new StickyAssignor(),
      [m('C1', ['t0', 't1'], had(1, ...first.C1)), m('C2', ['t0', 't1', 't2'], had(1, ...first.C2))],
      topics,
    );
    expect(second).toEqual({ C1: ['t0-0', 't1-0', 't1-1'], C2: ['t2-0', 't2-1', 't2-2'] });
  });

  it('gives a partition claimed twice to the member of the newer generation', () => {
    const result = run(
      new StickyAssignor(),
      [m('old', ['t0'], had(3, 't0-0', 't0-1')), m('new', ['t0'], had(4, 't0-0'))],
      { t0: 2 },
    );
    expect(result).toEqual({ old: ['t0-1'], new: ['t0-0'] });
  });

  // "Aa" and "BB" hash alike in Java, so these ids share a HashMap bucket and the JoinGroup
  // order decides which two of the three full owners keep both partitions, as it does in Kafka.
  it('serves members in the order Java walks its HashMap', () => {
    const ab = m('AaBB', ['t0'], had(2, 't0-0', 't0-1'));
    const ba = m('BBAa', ['t0'], had(2, 't0-2', 't0-3'));
    const aa = m('AaAa', ['t0'], had(2, 't0-4', 't0-5'));
    const joined = m('BBBB', ['t0']);
    expect(run(new StickyAssignor(), [ab, ba, aa, joined], { t0: 6 })).toEqual({
      AaBB: ['t0-0', 't0-1'],
      BBAa: ['t0-2', 't0-3'],
      AaAa: ['t0-4'],
      BBBB: ['t0-5'],
    });
    expect(run(new StickyAssignor(), [aa, ba, ab, joined], { t0: 6 })).toEqual({
      AaAa: ['t0-4', 't0-5'],
      BBAa: ['t0-2', 't0-3'],
      AaBB: ['t0-0'],
      BBBB: ['t0-1'],
    });
  });

  it('never gives a member a topic it does not subscribe to, where Kafka would', () => {
    // "gone" held t1 in an older generation and now subscribes to t0 only; Kafka hands t1
    // partitions back to it while balancing. tidemark answers without that.
    const result = run(
      new StickyAssignor(),
      [
        m('gone', ['t0'], had(1, 't1-0', 't1-1', 't1-2', 't1-3')),
        m('a', ['t0', 't1'], had(2, 't1-0', 't1-1', 't1-2', 't1-3', 't0-0')),
        m('b', ['t0', 't1'], had(2, 't0-1')),
      ],
      { t0: 2, t1: 4 },
    );
    expect(result.gone.every((tp) => tp.startsWith('t0-'))).toBe(true);
    expect(Object.values(result).flat().sort()).toEqual(['t0-0', 't0-1', 't1-0', 't1-1', 't1-2', 't1-3']);
  });
});

describe('cooperative-sticky', () => {
  const topics = { t0: 6 };

  it('revokes before it reassigns: a joining member waits one rebalance for moved partitions', () => {
    const leader = new CooperativeStickyAssignor();
    const a = m('a', ['t0'], { ownedPartitions: owned('t0-0', 't0-1', 't0-2'), generationId: 4 });
    const b = m('b', ['t0'], { ownedPartitions: owned('t0-3', 't0-4', 't0-5'), generationId: 4 });
    const first = run(leader, [a, b, m('c', ['t0'])], topics);
    // a and b keep two each; the two they give up go to nobody yet
    expect(first.a.length + first.b.length).toBe(4);
    expect(first.c).toEqual([]);
    const second = run(
      leader,
      [
        m('a', ['t0'], { ownedPartitions: owned(...first.a), generationId: 5 }),
        m('b', ['t0'], { ownedPartitions: owned(...first.b), generationId: 5 }),
        m('c', ['t0'], { generationId: 5 }),
      ],
      topics,
    );
    expect(second.a).toEqual(first.a);
    expect(second.b).toEqual(first.b);
    expect(second.c.sort()).toEqual(
      ['t0-0', 't0-1', 't0-2', 't0-3', 't0-4', 't0-5'].filter((tp) => !first.a.includes(tp) && !first.b.includes(tp)),
    );
  });

  it('reads the generation from userData when the subscription has none', () => {
    const stale = m('stale', ['t0'], {
      ownedPartitions: owned('t0-0', 't0-1'),
      generationId: -1,
      userData: Buffer.from('00000002', 'hex'),
    });
    const fresh = m('fresh', ['t0'], { ownedPartitions: owned('t0-0'), generationId: 3 });
    const result = run(new CooperativeStickyAssignor(), [stale, fresh], { t0: 2 });
    expect(result.fresh).toEqual(['t0-0']);
    expect(result.stale).toEqual(['t0-1']);
  });
});
