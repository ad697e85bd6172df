import { describe, expect, it } from 'vitest';
import { groupBy, groupByTopic } from '../../../src/cluster/group-by.js';

describe('groupByTopic', () => {
  it('lists topics by name and partitions ascending, each once, whatever order they came in', () => {
    const input = [
      { topic: 'b', partition: 2 },
      { topic: 'a', partition: 10 },
      { topic: 'b', partition: 0 },
      { topic: 'a', partition: 2 },
      { topic: 'b', partition: 2 },
    ];
    expect(groupByTopic(input)).toEqual([
      { topic: 'a', partitions: [2, 10] },
      { topic: 'b', partitions: [0, 2] },
    ]);
    expect(groupByTopic([])).toEqual([]);
  });
});

describe('groupBy', () => {
  it('keeps first-seen order of keys and of items (a Fetch request lists topics as the session sends them)', () => {
    const grouped = groupBy(['b1', 'a1', 'b2'], (s) => s[0]);
    expect([...grouped]).toEqual([
      ['b', ['b1', 'b2']],
      ['a', ['a1']],
    ]);
  });
});
